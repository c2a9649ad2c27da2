#include "views/editor/mergedialog.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace {

constexpr int kTheirs = int(RowMerge::Side::Theirs);
constexpr int kMine = int(RowMerge::Side::Mine);
constexpr int kMaxTextLines = 12;

QString editedBy(const RowMerge::Field &field)
{
    if (field.editedByMe && field.editedByThem)
        return MergeDialog::tr("changed on both sides");
    return field.editedByMe ? MergeDialog::tr("changed by you") : MergeDialog::tr("changed on the server");
}

QLabel *headerLabel(const QString &text)
{
    auto *label = new QLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()));
    label->setTextFormat(Qt::RichText);
    return label;
}

} // namespace

MergeDialog::MergeDialog(RowMerge merge, QWidget *parent) : QDialog(parent), m_merge(std::move(merge))
{
    setObjectName(QStringLiteral("mergeDialog"));
    setWindowTitle(tr("Merge %1").arg(m_merge.key()));
    auto *intro = new QLabel(
        tr("<b>%1 was changed on the server since you read it.</b> For each field the two versions differ "
           "in, "
           "choose the value to keep: yours is preselected where you edited the field, the server's "
           "everywhere "
           "else. Apply writes the result over the server's version (updated %2); if it changes again "
           "meanwhile you are asked again. Cancel keeps your edits unsaved.")
            .arg(m_merge.key().toHtmlEscaped(), m_merge.theirs().updatedAt.toHtmlEscaped()),
        this);
    intro->setObjectName(QStringLiteral("mergeIntro"));
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(buildFields());
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *apply = buttons->addButton(tr("&Apply Merge"), QDialogButtonBox::AcceptRole);
    apply->setObjectName(QStringLiteral("mergeApply"));
    apply->setDefault(true);
    QPushButton *cancel = buttons->addButton(tr("&Cancel (Keep My Edits)"), QDialogButtonBox::RejectRole);
    cancel->setObjectName(QStringLiteral("mergeCancel"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(scroll, 1);
    layout->addWidget(buttons);
    resize(1100, 620);
}

QWidget *MergeDialog::buildFields()
{
    auto *page = new QWidget;
    auto *grid = new QGridLayout(page);
    grid->addWidget(headerLabel(tr("Field")), 0, 0);
    grid->addWidget(headerLabel(tr("What you read")), 0, 1);
    grid->addWidget(headerLabel(tr("Theirs (on the server now)")), 0, 2);
    grid->addWidget(headerLabel(tr("Mine (unsaved)")), 0, 3);
    grid->addWidget(headerLabel(tr("Keep")), 0, 4);
    int row = 1;
    for (const RowMerge::Field &field : m_merge.fields())
        addField(grid, row++, field);
    grid->setColumnStretch(1, 2);
    grid->setColumnStretch(2, 3);
    grid->setColumnStretch(3, 3);
    grid->setRowStretch(row, 1);
    return page;
}

void MergeDialog::addField(QGridLayout *grid, int row, const RowMerge::Field &field)
{
    auto *name = new QLabel(QStringLiteral("<b>%1</b><br><small>%2</small>")
                                .arg(field.column.toHtmlEscaped(), editedBy(field).toHtmlEscaped()));
    name->setTextFormat(Qt::RichText);
    grid->addWidget(name, row, 0, Qt::AlignTop);
    grid->addWidget(valueWidget(field, field.base, true), row, 1);
    grid->addWidget(valueWidget(field, field.theirs, false), row, 2);
    grid->addWidget(valueWidget(field, field.mine, false), row, 3);

    auto *choice = new QWidget;
    auto *choiceLayout = new QVBoxLayout(choice);
    choiceLayout->setContentsMargins(0, 0, 0, 0);
    auto *group = new QButtonGroup(this);
    for (const auto &[id, text] : {std::pair{kTheirs, tr("Theirs")}, std::pair{kMine, tr("Mine")}}) {
        auto *button = new QRadioButton(text, choice);
        button->setObjectName(field.column
                              + (id == kMine ? QStringLiteral("-mine") : QStringLiteral("-theirs")));
        group->addButton(button, id);
        choiceLayout->addWidget(button);
    }
    choiceLayout->addStretch();
    group->button(int(field.choice))->setChecked(true);
    const QString column = field.column;
    connect(group, &QButtonGroup::idClicked, this,
            [this, column](int id) { m_merge.choose(column, RowMerge::Side(id)); });
    m_choices.insert(field.column, group);
    grid->addWidget(choice, row, 4, Qt::AlignTop);
}

QWidget *MergeDialog::valueWidget(const RowMerge::Field &field, const QVariant &value, bool isBase) const
{
    const QString text = RowMerge::valueText(value);
    if (!RowMerge::isMultiLine(field)) {
        auto *label = new QLabel(text);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        if (value.isNull())
            label->setStyleSheet(QStringLiteral("color: palette(mid);"));
        return label;
    }
    if (!isBase && value == field.base) {
        auto *same = new QLabel(tr("(as you read it)"));
        same->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        same->setStyleSheet(QStringLiteral("color: palette(mid);"));
        return same;
    }
    // Theirs and mine show what they changed from what was read; the base column shows
    // what was read in full.
    auto *edit = new QPlainTextEdit;
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setPlainText(isBase ? text : RowMerge::changesFrom(field.base.toString(), value.toString()));
    const int lines = std::min(kMaxTextLines, int(edit->document()->blockCount()) + 1);
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * lines + 12);
    return edit;
}

QRadioButton *MergeDialog::choiceButton(const QString &column, RowMerge::Side side) const
{
    QButtonGroup *group = m_choices.value(column);
    return group ? qobject_cast<QRadioButton *>(group->button(int(side))) : nullptr;
}
