#include "views/editor/roweditorpanel.h"

#include "dispatch/row/rowschema.h"
#include "dispatch/row/rowvalidator.h"
#include "models/directorydocument.h"
#include "models/lintcontroller.h"
#include "models/lintstate.h"
#include "views/common/deferredcontent.h"
#include "views/common/typeicons.h"
#include "views/common/undoshortcutfilter.h"
#include "views/editor/contenthighlighter.h"
#include "views/editor/jsonfieldedit.h"
#include "views/editor/nullableintedit.h"
#include "views/editor/rowhistorypanel.h"
#include "views/editor/rowtitlebar.h"
#include "views/editor/textsync.h"
#include "views/invoke/contractview.h"
#include "views/lint/rowfindingsview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <utility>

namespace {

enum Page { EmptyPage, FormPage };

const QString kKey = QStringLiteral("key");
const QString kType = QStringLiteral("type");
const QString kTarget = QStringLiteral("target");
const QString kContent = QStringLiteral("content");
const QString kSeq = QStringLiteral("seq");
const QString kPlannerRank = QStringLiteral("planner_rank");
const QString kInputSchema = QStringLiteral("input_schema");
const QString kExamples = QStringLiteral("examples");

void setProblemText(QLabel *label, const QString &problem)
{
    label->setText(problem);
    label->setVisible(!problem.isEmpty());
}

QString targetHint(const QString &type)
{
    if (type == QLatin1String("fn"))
        return RowEditorPanel::tr("builtin function, e.g. now");
    if (type == QLatin1String("http"))
        return RowEditorPanel::tr("METHOD URL, e.g. GET https://api.example.com/items/$1");
    if (type == QLatin1String("agent"))
        return RowEditorPanel::tr("model, e.g. grok-4");
    return RowEditorPanel::tr("not used by flows");
}

} // namespace

RowEditorPanel::RowEditorPanel(QWidget *parent)
    : QWidget(parent), m_undoFilter(new UndoShortcutFilter(this)), m_pages(new QStackedWidget(this)),
      m_tabs(new QTabWidget(this)), m_history(new RowHistoryPanel(this)), m_contract(new ContractView(this)),
      m_findings(new RowFindingsView(this)), m_findingsToggle(new QToolButton(this)),
      m_title(new RowTitleBar(this)), m_form(new QScrollArea(this)),
      m_splitter(new QSplitter(Qt::Vertical, this))
{
    m_form->setWidget(buildForm());
    m_form->setWidgetResizable(true);
    // The fields shrink with the pane rather than scroll sideways.
    m_form->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_form->setFrameShape(QFrame::NoFrame);
    // Room for four fields at least, whatever the findings and the content take.
    m_form->setMinimumHeight(4 * (m_keyEdit->sizeHint().height() + 8));
    m_splitter->addWidget(m_form);
    m_splitter->addWidget(buildContent());
    m_splitter->setChildrenCollapsible(false);
    // The content is the row's main field: it gets the larger share as the window grows.
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);

    m_findingsToggle->setObjectName(QStringLiteral("findingsToggle"));
    m_findingsToggle->setCheckable(true);
    m_findingsToggle->setChecked(true);
    m_findingsToggle->setAutoRaise(true);
    m_findingsToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_findingsToggle->setArrowType(Qt::DownArrow);
    m_findingsToggle->hide();
    connect(m_findingsToggle, &QToolButton::toggled, this, [this](bool open) {
        m_findingsToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_findings->setVisible(open && m_findings->count() > 0);
    });

    auto *empty = new QLabel(tr("Select a row to edit it."), m_pages);
    empty->setAlignment(Qt::AlignCenter);
    empty->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_pages->insertWidget(EmptyPage, empty);
    m_tabs->setDocumentMode(true);
    auto *rowTab = new QWidget(m_tabs);
    auto *rowLayout = new QVBoxLayout(rowTab);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->addWidget(m_splitter, 1);
    rowLayout->addWidget(m_findingsToggle);
    rowLayout->addWidget(m_findings);
    connect(m_findings, &RowFindingsView::fieldActivated, this, &RowEditorPanel::focusField);
    m_tabs->addTab(rowTab, tr("Row"));
    m_tabs->addTab(new DeferredContent(m_history), tr("History"));
    connect(m_history, &RowHistoryPanel::restoreRequested, this, &RowEditorPanel::restoreVersion);
    m_tabs->addTab(new DeferredContent(m_contract), tr("Contract"));
    m_pages->insertWidget(FormPage, m_tabs);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_pages, 1);
    refresh(true);
}

QWidget *RowEditorPanel::buildForm()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);

    m_keyEdit = m_undoFilter->watch(new QLineEdit(page));
    m_keyEdit->setObjectName(kKey);
    form->addRow(tr("&Key"), m_keyEdit);
    m_keyProblem = addProblemLabel(form);
    connect(m_keyEdit, &QLineEdit::textEdited, this, &RowEditorPanel::checkTypedKey);
    connect(m_keyEdit, &QLineEdit::editingFinished, this, &RowEditorPanel::commitKey);

    m_type = new QComboBox(page);
    m_type->setObjectName(kType);
    for (const QString &type : RowSchema::types())
        m_type->addItem(TypeIcons::forType(type), type, type);
    form->addRow(tr("T&ype"), m_type);
    m_typeProblem = addProblemLabel(form);
    connect(m_type, &QComboBox::activated, this, [this](int index) { edit(kType, m_type->itemData(index)); });

    addLine(form, tr("Tar&get"), kTarget);
    addLine(form, tr("&Auth"), QStringLiteral("auth"))
        ->setPlaceholderText(tr("bearer:NAME · basic:NAME · query:NAME"));
    addLine(form, tr("Categ&ory"), QStringLiteral("category"));
    addLine(form, tr("Allowed categories"), QStringLiteral("allowed_categories"))
        ->setPlaceholderText(tr("comma-separated category names"));
    addLine(form, tr("&Includes"), QStringLiteral("includes"))
        ->setPlaceholderText(tr("comma-separated keys"));

    // runner and sensitive are local columns: production's PATCH allow-list omits them.
    const QString localOnly = tr("Not patchable through REST on a production server (SPEC §8).");
    addLine(form, tr("R&unner"), QStringLiteral("runner"))->setToolTip(localOnly);

    auto *flags = new QHBoxLayout;
    flags->addWidget(addCheck(tr("Ena&bled"), QStringLiteral("enabled")));
    flags->addWidget(addCheck(tr("&Planner visible"), QStringLiteral("planner_visible")));
    flags->addStretch();
    form->addRow(tr("Flags"), flags);
    QCheckBox *sensitive = addCheck(tr("&Sensitive (risk high)"), QStringLiteral("sensitive"));
    sensitive->setToolTip(localOnly);
    form->addRow(QString(), sensitive);
    m_readOnlyNote = new QLabel(page);
    m_readOnlyNote->setObjectName(QStringLiteral("readOnlyNote"));
    m_readOnlyNote->setWordWrap(true);
    m_readOnlyNote->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_readOnlyNote->hide();
    form->addRow(QString(), m_readOnlyNote);

    m_seq = new NullableIntEdit(page);
    m_seq->setObjectName(kSeq);
    m_undoFilter->watch(m_seq->spinBox());
    form->addRow(tr("Se&q"), m_seq);
    connect(m_seq, &NullableIntEdit::edited, this, [this](const QVariant &value) { edit(kSeq, value); });
    m_plannerRank = m_undoFilter->watch(new QSpinBox(page));
    m_plannerRank->setObjectName(kPlannerRank);
    m_plannerRank->setRange(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    form->addRow(tr("Planner ra&nk"), m_plannerRank);
    connect(m_plannerRank, &QSpinBox::valueChanged, this,
            [this](int value) { edit(kPlannerRank, qint64(value)); });

    m_inputSchema = new JsonFieldEdit(page);
    m_inputSchema->setObjectName(kInputSchema);
    m_inputSchema->setPlaceholderText(tr("JSON Schema object"));
    m_undoFilter->watch(m_inputSchema->editor());
    form->addRow(tr("Input sche&ma"), m_inputSchema);
    connect(m_inputSchema, &JsonFieldEdit::edited, this,
            [this](const QString &text) { edit(kInputSchema, textValue(kInputSchema, text)); });

    m_examples = new JsonFieldEdit(page);
    m_examples->setObjectName(kExamples);
    m_examples->setVisibleLines(2);
    m_examples->setPlaceholderText(tr("JSON array of body strings"));
    m_undoFilter->watch(m_examples->editor());
    form->addRow(tr("E&xamples"), m_examples);
    connect(m_examples, &JsonFieldEdit::edited, this,
            [this](const QString &text) { edit(kExamples, textValue(kExamples, text)); });

    m_updatedAt = new QLabel(page);
    m_createdAt = new QLabel(page);
    for (QLabel *stamp : {m_updatedAt, m_createdAt})
        stamp->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Updated"), m_updatedAt);
    form->addRow(tr("Created"), m_createdAt);
    markFields(form);
    return page;
}

QWidget *RowEditorPanel::buildContent()
{
    auto *box = new QWidget;
    m_content = m_undoFilter->watch(new QPlainTextEdit(box));
    m_content->setObjectName(kContent);
    m_content->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_content->setTabStopDistance(QFontMetricsF(m_content->font()).horizontalAdvance(u' ') * 4);
    // Wrapped, so a long payload line reads without scrolling sideways.
    m_content->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_content->setMinimumHeight(QFontMetrics(m_content->font()).lineSpacing() * minimumContentLines
                                + 2 * m_content->frameWidth() + 8);
    m_content->setUndoRedoEnabled(false);
    m_content->setPlaceholderText(
        tr("# WHAT: …\n# WHEN_TO_USE: …\n# ARGS: …\n# EX: [KEY]body[/KEY]\npayload"));
    new ContentHighlighter(m_content->document()); // owned by the document
    connect(m_content, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_refreshing)
            edit(kContent, textValue(kContent, TextSync::fromEditorLineEnds(TextSync::plainText(m_content),
                                                                            m_contentCrLf)));
    });

    auto *label = new QLabel(tr("&Content — doc lines (#) and the payload"), box);
    label->setBuddy(m_content);
    m_findings->addField(kContent, label);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(label);
    layout->addWidget(m_content, 1);
    return box;
}

// Each field's form label is where a lint finding about it shows (RowFindingsView).
void RowEditorPanel::markFields(QFormLayout *form)
{
    QHash<QString, QWidget *> widgets{{kKey, m_keyEdit},
                                      {kType, m_type},
                                      {kSeq, m_seq},
                                      {kPlannerRank, m_plannerRank},
                                      {kInputSchema, m_inputSchema},
                                      {kExamples, m_examples}};
    for (auto it = m_lines.cbegin(); it != m_lines.cend(); ++it)
        widgets.insert(it.key(), it.value());
    for (auto it = widgets.cbegin(); it != widgets.cend(); ++it)
        m_findings->addField(it.key(), qobject_cast<QLabel *>(form->labelForField(it.value())));
}

QWidget *RowEditorPanel::fieldWidget(const QString &field) const
{
    if (field == kKey)
        return m_keyEdit;
    if (field == kType)
        return m_type;
    if (field == kContent)
        return m_content;
    if (field == kSeq)
        return m_seq->spinBox();
    if (field == kPlannerRank)
        return m_plannerRank;
    if (field == kInputSchema)
        return m_inputSchema->editor();
    if (field == kExamples)
        return m_examples->editor();
    if (QWidget *line = m_lines.value(field))
        return line;
    return m_checks.value(field);
}

void RowEditorPanel::focusField(const QString &field)
{
    QWidget *widget = fieldWidget(field);
    if (!widget)
        widget = m_content; // most rules read the doc lines
    m_tabs->setCurrentIndex(0);
    widget->setFocus(Qt::OtherFocusReason);
}

void RowEditorPanel::setReadOnlyColumns(const QMap<QString, QString> &reasons)
{
    m_readOnly = reasons;
    QStringList notes;
    for (const QString &column : RowSchema::columns()) {
        QWidget *widget = fieldWidget(column);
        if (!widget || column == kKey)
            continue; // the key's own rule (saved keys are fixed) stays in charge of it
        if (!m_defaultToolTips.contains(column))
            m_defaultToolTips.insert(column, widget->toolTip());
        const bool readOnly = reasons.contains(column);
        if (auto *line = qobject_cast<QLineEdit *>(widget))
            line->setReadOnly(readOnly);
        else
            widget->setEnabled(!readOnly);
        widget->setToolTip(readOnly ? reasons.value(column) : m_defaultToolTips.value(column));
        if (readOnly && !notes.contains(reasons.value(column)))
            notes.append(reasons.value(column));
    }
    m_readOnlyNote->setText(notes.join(u'\n'));
    m_readOnlyNote->setVisible(!notes.isEmpty());
}

void RowEditorPanel::setLintController(LintController *controller)
{
    if (m_lint)
        disconnect(m_lint->state(), nullptr, this, nullptr);
    m_lint = controller;
    if (m_lint) {
        connect(m_lint->state(), &LintState::reset, this, &RowEditorPanel::showFindings);
        connect(m_lint->state(), &LintState::rowChanged, this, [this](const QString &key) {
            if (key == m_key)
                showFindings();
        });
    }
    showFindings();
}

void RowEditorPanel::showFindings()
{
    const QList<LintFinding> findings =
        m_lint && !m_key.isEmpty() ? m_lint->state()->findings(m_key) : QList<LintFinding>();
    m_findings->showFindings(findings);
    m_findings->setVisible(!findings.isEmpty() && m_findingsToggle->isChecked());
    m_findingsToggle->setVisible(!findings.isEmpty());
    m_findingsToggle->setText(findings.size() == 1 ? tr("1 lint finding")
                                                   : tr("%1 lint findings").arg(findings.size()));
}

QLineEdit *RowEditorPanel::addLine(QFormLayout *form, const QString &label, const QString &column)
{
    auto *line = m_undoFilter->watch(new QLineEdit(form->parentWidget()));
    line->setObjectName(column);
    form->addRow(label, line);
    m_lines.insert(column, line);
    connect(line, &QLineEdit::textEdited, this,
            [this, column](const QString &text) { edit(column, textValue(column, text)); });
    return line;
}

QCheckBox *RowEditorPanel::addCheck(const QString &text, const QString &column)
{
    auto *check = new QCheckBox(text);
    check->setObjectName(column);
    m_checks.insert(column, check);
    connect(check, &QCheckBox::clicked, this, [this, column](bool on) { edit(column, on); });
    return check;
}

QLabel *RowEditorPanel::addProblemLabel(QFormLayout *form)
{
    auto *label = new QLabel(form->parentWidget());
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #b3261e;"));
    form->addRow(QString(), label);
    label->hide();
    return label;
}

void RowEditorPanel::setDocument(DirectoryDocument *document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr);
        disconnect(m_document, nullptr, m_history, nullptr);
        disconnect(m_document->undoStack(), nullptr, m_history, nullptr);
    }
    m_document = document;
    m_key.clear();
    m_renamePartners.clear();
    if (m_document) {
        connect(m_document, &DirectoryDocument::rowChanged, this, &RowEditorPanel::followRowChange);
        connect(m_document, &DirectoryDocument::rowRenamed, this, &RowEditorPanel::followRename);
        connect(m_document, &DirectoryDocument::saved, m_history, &RowHistoryPanel::reload);
        // What a restore said stops being true at the next undo, redo or edit.
        connect(m_document->undoStack(), &QUndoStack::indexChanged, m_history,
                [this] { m_history->setRestoreNote(QString()); });
    }
    m_contract->setDocument(m_document);
    refresh(true);
}

void RowEditorPanel::setHistory(std::shared_ptr<const DirectoryHistory> history)
{
    m_history->setHistory(std::move(history));
}

void RowEditorPanel::showRow(const QString &key)
{
    if (key == m_key)
        return;
    m_key = key;
    refresh(true);
}

void RowEditorPanel::focusKey()
{
    m_keyEdit->setFocus(Qt::OtherFocusReason);
    m_keyEdit->selectAll();
}

void RowEditorPanel::commitPendingEdits()
{
    commitKey();
}

QByteArray RowEditorPanel::saveLayout() const
{
    return m_splitter->saveState();
}

void RowEditorPanel::restoreLayout(const QByteArray &state)
{
    m_splitter->restoreState(state);
}

void RowEditorPanel::refresh(bool anotherRow)
{
    const std::optional<Row> row = m_document && !m_key.isEmpty() ? m_document->row(m_key) : std::nullopt;
    if (!row && m_document && !m_key.isEmpty() && m_document->summary(m_key)
        && (m_document->isLoading(m_key) || !m_document->loadError(m_key).isEmpty())) {
        showPending();
        return;
    }
    // The first full view of a row that was pending starts at its top, like another row.
    if (std::exchange(m_showingPending, false)) {
        anotherRow = true;
        m_tabs->setEnabled(true);
    }
    m_pages->setCurrentIndex(row ? FormPage : EmptyPage);
    m_history->setKey(row ? m_key : QString());
    m_contract->showRow(row ? m_key : QString());
    if (anotherRow) {
        showFindings();
        m_form->verticalScrollBar()->setValue(0);
    }
    if (!row) {
        m_title->clear();
        return;
    }
    const QScopedValueRollback guard(m_refreshing, true);
    showHeader(*row);
    showFields(*row, anotherRow);
    showProblems(*row);
}

void RowEditorPanel::showHeader(const Row &row)
{
    using State = RowTitleBar::State;
    const State state = m_document->isRowSaving(m_key)     ? State::Saving
                        : !m_document->isStored(m_key)     ? State::New
                        : m_document->isRowModified(m_key) ? State::Modified
                                                           : State::Saved;
    m_title->showRow(row.type, row.key, state);
}

void RowEditorPanel::showPending()
{
    const RowSummary summary = *m_document->summary(m_key);
    Row partial;
    partial.key = summary.key;
    partial.type = summary.type;
    partial.category = summary.category;
    partial.target = summary.target;
    partial.enabled = summary.enabled;
    partial.sensitive = summary.sensitive;
    partial.updatedAt = summary.updatedAt;
    m_showingPending = true;
    m_pages->setCurrentIndex(FormPage);
    m_tabs->setEnabled(false);
    m_history->setKey(QString());
    m_contract->showRow(m_key);
    const QScopedValueRollback guard(m_refreshing, true);
    showFields(partial, true);
    m_title->showRow(summary.type, summary.key,
                     m_document->isLoading(m_key) ? RowTitleBar::State::Loading
                                                  : RowTitleBar::State::Unreadable);
}

void RowEditorPanel::showFields(const Row &row, bool anotherRow)
{
    m_contentCrLf = TextSync::usesCrLf(row.content);
    if (anotherRow) {
        m_nullColumns.clear();
        for (const QString &column : RowSchema::columns()) {
            if (!RowSchema::isIntegerColumn(column) && row.value(column).isNull())
                m_nullColumns.insert(column);
        }
        // Another row starts at its top; the same row keeps its cursor (TextSync).
        m_content->setPlainText(TextSync::toEditorLineEnds(row.content));
        m_inputSchema->resetText(row.inputSchema);
        m_examples->resetText(row.examples);
    } else {
        TextSync::setText(m_content, TextSync::toEditorLineEnds(row.content));
        m_inputSchema->setText(row.inputSchema);
        m_examples->setText(row.examples);
    }

    TextSync::setText(m_keyEdit, row.key);
    // Stored keys are fixed: receipts, flows and includes refer to rows by key.
    m_keyEdit->setReadOnly(m_document->isStored(m_key));
    m_keyEdit->setToolTip(
        m_keyEdit->isReadOnly() ? tr("A saved row's key cannot change; duplicate it instead.") : QString());
    m_type->setCurrentIndex(m_type->findData(row.type));
    for (auto it = m_lines.cbegin(); it != m_lines.cend(); ++it) {
        TextSync::setText(it.value(), row.value(it.key()).toString());
        // Another row shows the start of long values (a URL's method and host).
        if (anotherRow)
            it.value()->setCursorPosition(0);
    }
    m_lines.value(kTarget)->setPlaceholderText(targetHint(row.type));
    for (auto it = m_checks.cbegin(); it != m_checks.cend(); ++it)
        it.value()->setChecked(row.value(it.key()).toLongLong() != 0);
    m_seq->setValue(row.seq);
    m_plannerRank->setValue(
        int(std::clamp<qint64>(row.plannerRank, m_plannerRank->minimum(), m_plannerRank->maximum())));
    m_updatedAt->setText(row.updatedAt.isEmpty() ? tr("not saved yet") : row.updatedAt);
    m_createdAt->setText(row.createdAt.isEmpty() ? tr("unknown") : row.createdAt);
}

void RowEditorPanel::showProblems(const Row &row)
{
    QHash<QString, QString> byField;
    for (const FieldProblem &problem : RowValidator::check(row))
        byField.insert(problem.field,
                       QStringLiteral("%1 %2: %3").arg(problem.code, problem.name, problem.message));
    setProblemText(m_keyProblem, byField.value(kKey));
    setProblemText(m_typeProblem, byField.value(kType));
    m_inputSchema->setProblem(byField.value(kInputSchema));
    m_examples->setProblem(byField.value(kExamples));
}

void RowEditorPanel::edit(const QString &column, const QVariant &value)
{
    if (m_refreshing || !m_document || m_key.isEmpty() || m_readOnly.contains(column))
        return;
    m_document->setField(m_key, column, value);
}

QVariant RowEditorPanel::textValue(const QString &column, const QString &text) const
{
    if (text.isEmpty() && m_nullColumns.contains(column))
        return QVariant();
    return text;
}

void RowEditorPanel::checkTypedKey(const QString &text)
{
    QString problem;
    if (!RowValidator::isValidKey(text))
        problem =
            tr("H001 key_format: key '%1' must match ^[A-Z][A-Z0-9_]{1,63}$ (capital letter first, then "
               "capitals, digits, _)")
                .arg(text);
    else if (text != m_key && m_document && m_document->contains(text))
        problem = tr("key '%1' is already in use").arg(text);
    setProblemText(m_keyProblem, problem);
}

void RowEditorPanel::commitKey()
{
    const QString newKey = m_keyEdit->text().trimmed();
    if (m_refreshing || !m_document || m_key.isEmpty() || newKey == m_key || m_document->isStored(m_key))
        return;
    if (newKey.isEmpty() || m_document->contains(newKey))
        return; // the problem label already says why; the typed text stays for fixing
    // The panel moves first, so the document's rowChanged(newKey) refreshes the right row.
    const QString oldKey = m_key;
    m_key = newKey;
    m_document->renameRow(oldKey, newKey);
    if (!m_document->contains(newKey)) {
        m_key = oldKey;
        refresh(false);
        return;
    }
    emit shownKeyChanged(newKey);
}

void RowEditorPanel::followRowChange(const QString &key)
{
    if (key == m_key) {
        refresh(false);
        return;
    }
    // Undo/redo of a rename: the shown key vanished and its partner appeared.
    if (m_renamePartners.contains(m_key, key) && !m_document->contains(m_key) && m_document->contains(key)) {
        m_key = key;
        refresh(false);
        emit shownKeyChanged(key);
    }
}

void RowEditorPanel::followRename(const QString &oldKey, const QString &newKey)
{
    m_renamePartners.insert(oldKey, newKey);
    m_renamePartners.insert(newKey, oldKey);
    if (oldKey == m_key) {
        m_key = newKey;
        refresh(false);
        emit shownKeyChanged(newKey);
    }
}

void RowEditorPanel::restoreVersion(const Row &version, qint64 versionSeq)
{
    if (!m_document || version.key != m_key)
        return;
    if (!m_document->restoreVersion(version, versionSeq)) {
        m_history->setRestoreNote(
            tr("%1 already holds the values of version #%2.").arg(m_key).arg(versionSeq));
        return;
    }
    m_history->setRestoreNote(
        tr("Version #%1 is now the unsaved draft of %2: Save writes it (logged as a restore), "
           "Undo takes it back.")
            .arg(versionSeq)
            .arg(m_key));
}
