#include "views/table/filterbar.h"

#include "dispatch/row/rowschema.h"
#include "models/contentsearch.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "views/common/typeicons.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>

FilterBar::FilterBar(QWidget *parent)
    : QWidget(parent), m_search(new QLineEdit(this)), m_type(new QComboBox(this)),
      m_nonCompliant(new QCheckBox(tr("Only non-compliant"), this)), m_busy(new QLabel(this))
{
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setPlaceholderText(tr("Filter by key, target, category or content"));
    m_search->setClearButtonEnabled(true);
    auto *clear = new QAction(m_search);
    clear->setShortcut(Qt::Key_Escape);
    clear->setShortcutContext(Qt::WidgetShortcut);
    m_search->addAction(clear);
    connect(clear, &QAction::triggered, m_search, &QLineEdit::clear);
    m_search->installEventFilter(this);

    m_type->setObjectName(QStringLiteral("typeFilter"));
    m_type->addItem(tr("All types"), QString());
    for (const QString &type : RowSchema::types())
        m_type->addItem(TypeIcons::forType(type), type, type);

    m_nonCompliant->setObjectName(QStringLiteral("nonCompliantOnly"));
    m_nonCompliant->setToolTip(tr("Rows with a lint error: a save as new would be refused (SPEC §8)"));

    m_busy->setText(tr("searching content…"));
    m_busy->setStyleSheet(QStringLiteral("color: palette(mid); font-style: italic;"));
    QSizePolicy keepPlace = m_busy->sizePolicy();
    keepPlace.setRetainSizeWhenHidden(true);
    m_busy->setSizePolicy(keepPlace);
    m_busy->hide();

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_search, 1);
    layout->addWidget(m_busy);
    layout->addWidget(m_type);
    layout->addWidget(m_nonCompliant);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        applyFilter();
        if (m_document)
            m_document->contentSearch()->request(text);
    });
    connect(m_type, &QComboBox::currentIndexChanged, this, &FilterBar::applyFilter);
    connect(m_nonCompliant, &QCheckBox::toggled, this, &FilterBar::applyFilter);
    setEnabled(false);
}

void FilterBar::setDocument(DirectoryDocument *document)
{
    if (m_document)
        disconnect(m_document->contentSearch(), nullptr, this, nullptr);
    m_document = document;
    // Another directory, or the same one opened again or reached on a server, starts
    // unfiltered: a filter kept from before would read as "0 of 891 rows".
    {
        const QSignalBlocker text(m_search);
        const QSignalBlocker type(m_type);
        const QSignalBlocker compliance(m_nonCompliant);
        reset();
    }
    showBusy(false);
    setEnabled(m_document);
    if (!m_document)
        return;
    ContentSearch *search = m_document->contentSearch();
    DirectoryTableModel *model = m_document->tableModel();
    connect(search, &ContentSearch::finished, model, &DirectoryTableModel::setContentMatches,
            Qt::UniqueConnection);
    connect(search, &ContentSearch::busyChanged, this, &FilterBar::showBusy, Qt::UniqueConnection);
    applyFilter();
    search->request(m_search->text());
}

void FilterBar::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

bool FilterBar::isSearchingContent() const
{
    return m_document && m_document->contentSearch()->isBusy();
}

void FilterBar::applyFilter()
{
    if (!m_document)
        return;
    DirectoryTableModel *model = m_document->tableModel();
    // Only the text and type are ours; the category belongs to the category list.
    DirectoryFilter filter = model->filter();
    filter.text = m_search->text();
    filter.type = m_type->currentData().toString();
    filter.nonCompliantOnly = m_nonCompliant->isChecked();
    model->setFilter(filter);
}

void FilterBar::showBusy(bool busy)
{
    m_busy->setVisible(busy);
}

void FilterBar::reset()
{
    m_search->clear();
    m_type->setCurrentIndex(0);
    m_nonCompliant->setChecked(false);
}

bool FilterBar::isFiltering() const
{
    return !m_search->text().isEmpty() || m_type->currentIndex() > 0 || m_nonCompliant->isChecked();
}

bool FilterBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        const auto *press = static_cast<QKeyEvent *>(event);
        const int key = press->key();
        const bool plain = (press->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
        if (plain && (key == Qt::Key_Down || key == Qt::Key_Return || key == Qt::Key_Enter)) {
            emit moveIntoResults();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}
