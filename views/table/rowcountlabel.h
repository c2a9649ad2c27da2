#pragma once

#include <QLabel>
#include <QPointer>

class DirectoryDocument;
class DirectoryTableModel;

// "12 of 40 rows" in the status bar, following the table model's counts.
class RowCountLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowCountLabel)

public:
    explicit RowCountLabel(QWidget *parent = nullptr);

    void setDocument(DirectoryDocument *document);
    void showCounts(int visible, int total);

private:
    QPointer<DirectoryTableModel> m_model;
};
