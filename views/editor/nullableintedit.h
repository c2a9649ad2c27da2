#pragma once

#include <QWidget>

#include <optional>

class QCheckBox;
class QSpinBox;

// An INTEGER column that may be NULL (seq): a "set" box beside a spin box. Unticking the
// box makes the value NULL; the spin box keeps its number, so ticking it again restores it.
class NullableIntEdit final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NullableIntEdit)

public:
    explicit NullableIntEdit(QWidget *parent = nullptr);

    std::optional<qint64> value() const;
    // Shows `value` without emitting edited().
    void setValue(std::optional<qint64> value);

    QCheckBox *setBox() const { return m_set; }
    QSpinBox *spinBox() const { return m_number; }

signals:
    // The new value; a null QVariant for NULL.
    void edited(const QVariant &value);

private:
    QCheckBox *m_set;
    QSpinBox *m_number;
    bool m_setting = false;
};
