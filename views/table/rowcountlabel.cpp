#include "views/table/rowcountlabel.h"

#include "models/directorydocument.h"
#include "models/directorytablemodel.h"

RowCountLabel::RowCountLabel(QWidget *parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("rowCount"));
}

void RowCountLabel::setDocument(DirectoryDocument *document)
{
    if (!document) {
        clear();
        return;
    }
    m_model = document->tableModel();
    connect(m_model, &DirectoryTableModel::countsChanged, this, &RowCountLabel::showCounts,
            Qt::UniqueConnection);
    showCounts(m_model->rowCount(), m_model->totalRows());
}

void RowCountLabel::showCounts(int visible, int total)
{
    const QLocale locale;
    // While the rest of a large directory streams in, the total is not final yet.
    const QString text =
        m_model && m_model->isLoading() ? tr("%1 of %2+ rows (loading…)") : tr("%1 of %2 rows");
    setText(text.arg(locale.toString(visible), locale.toString(total)));
}
