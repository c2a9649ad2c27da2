#pragma once

#include "dispatch/receipts/receiptfilter.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLineEdit;

// The row of filters above the receipt table: a part of the key, a status, a time range
// (UTC, each end optional) and a part of an invocation id or trace. Every change is
// applied at once; the table keeps up with each keystroke.
class ReceiptFilterBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReceiptFilterBar)

public:
    explicit ReceiptFilterBar(QWidget *parent = nullptr);

    ReceiptFilter filter() const;
    // The statuses the combo offers besides "any"; the chosen one stays chosen.
    void setStatuses(const QStringList &statuses);
    // The callers the combo offers besides "any caller" (an MCP client is mcp:NAME).
    void setActors(const QStringList &actors);
    void clear();

    QLineEdit *keyEdit() const { return m_key; }
    QComboBox *statusCombo() const { return m_status; }
    QComboBox *actorCombo() const { return m_actor; }
    QCheckBox *fromCheck() const { return m_useFrom; }
    QDateTimeEdit *fromEdit() const { return m_from; }
    QCheckBox *toCheck() const { return m_useTo; }
    QDateTimeEdit *toEdit() const { return m_to; }
    QLineEdit *searchEdit() const { return m_search; }

signals:
    void filterChanged(const ReceiptFilter &filter);

private:
    QDateTimeEdit *timeEdit(const QString &name);
    // Offers `choices` after the combo's first ("any") item; the chosen one stays chosen.
    static void offer(QComboBox *combo, const QStringList &choices);
    void emitFilter();
    // A bound nobody set by hand follows the clock: ticked, it is taken from now, not from
    // when the dock was built, so "to" does not hide the receipts made since.
    void followClock(QCheckBox *check, QDateTimeEdit *edit, int offsetDays);

    QLineEdit *m_key;
    QComboBox *m_status;
    QComboBox *m_actor;
    QCheckBox *m_useFrom;
    QDateTimeEdit *m_from;
    QCheckBox *m_useTo;
    QDateTimeEdit *m_to;
    QLineEdit *m_search;
    bool m_quiet = false; // while several fields change as one
};
