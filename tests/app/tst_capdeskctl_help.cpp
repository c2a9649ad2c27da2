#include "dispatch/store/sqldirectorystore.h"
#include "tests/app/ctltestsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

// capdeskctl as a script or an owner's CI calls it (real process, real files, the exit
// codes of SPEC §11): the usage, `help COMMAND` and the usage errors of a line it
// cannot run, all generated from the command table.
class TestCapdeskctlHelp : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void usageErrors_data();
    void usageErrors();
    void aUsageErrorShowsItsCommandsUsage_data();
    void aUsageErrorShowsItsCommandsUsage();
    void helpAndInapplicableOptions();
    void optionsMayStandAnywhere();
    void helpNamesEveryCommand_data();
    void helpNamesEveryCommand();
    void helpOfAnUnknownCommand();
    void optionsACommandDoesNotTake_data();
    void optionsACommandDoesNotTake();
    void versionIsTheProjects();
    void manPageCoversTheTable();
    void completionCompletes_data();
    void completionCompletes();

private:
    QString db() const { return m_dir->filePath(QStringLiteral("ctl.db")); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCapdeskctlHelp::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

namespace {

// Every command of capdeskctl's table, as README.md lists them; helpNamesEveryCommand
// also checks that the usage lists no other.
const QStringList kCommands{u"init"_s,
                            u"import"_s,
                            u"export"_s,
                            u"get"_s,
                            u"put"_s,
                            u"patch"_s,
                            u"delete"_s,
                            u"invoke"_s,
                            u"flow-plan"_s,
                            u"lint"_s,
                            u"contract"_s,
                            u"mcp-tools"_s,
                            u"mcp"_s,
                            u"serve"_s,
                            u"receipts"_s,
                            u"confirm"_s,
                            u"verify-receipt"_s,
                            u"public-key"_s,
                            u"signing-key new"_s,
                            u"log"_s,
                            u"migrate"_s,
                            u"restore"_s,
                            u"token create"_s,
                            u"token list"_s,
                            u"token revoke"_s,
                            u"help"_s,
                            u"completion"_s};

} // namespace

void TestCapdeskctlHelp::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::addRow("no command") << QStringList{} << "no command given";
    QTest::addRow("unknown command") << QStringList{QStringLiteral("frobnicate")}
                                     << "unknown command 'frobnicate'";
    QTest::addRow("unknown option") << QStringList{QStringLiteral("get"), QStringLiteral("--colour")}
                                    << "unknown option --colour";
    QTest::addRow("get without key") << QStringList{QStringLiteral("get")} << "usage: capdeskctl get KEY";
    QTest::addRow("--db without value")
        << QStringList{QStringLiteral("get"), QStringLiteral("--db")} << "--db needs a value";
    QTest::addRow("bad format") << QStringList{QStringLiteral("export"), QStringLiteral("--format"),
                                               QStringLiteral("csv")}
                                << "--format is json or sql";
    QTest::addRow("--ca-file without --server")
        << QStringList{QStringLiteral("get"), QStringLiteral("K"), QStringLiteral("--ca-file"),
                       QStringLiteral("ca.pem")}
        << "--ca-file goes with --server URL";
    QTest::addRow("--tls-cert outside serve")
        << QStringList{QStringLiteral("get"), QStringLiteral("K"), QStringLiteral("--tls-cert"),
                       QStringLiteral("c.pem")}
        << "--tls-cert does not apply to get";
}

void TestCapdeskctlHelp::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = ctl(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

void TestCapdeskctlHelp::aUsageErrorShowsItsCommandsUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("usage"); // how a line of it starts; the whole usage when empty
    QTest::addRow("no command") << QStringList{} << QString();
    QTest::addRow("unknown command") << QStringList{QStringLiteral("frobnicate")}
                                     << "`capdeskctl help` lists the commands";
    QTest::addRow("get without key") << QStringList{QStringLiteral("get")} << "usage: capdeskctl get KEY";
    QTest::addRow("archive in the future")
        << QStringList{QStringLiteral("receipts"),   QStringLiteral("archive"), QStringLiteral("--before"),
                       QStringLiteral("2999-01-01"), QStringLiteral("--out"),   QStringLiteral("x.jsonl")}
        << "usage: capdeskctl receipts [--key K]";
    QTest::addRow("help of no command") << QStringList{QStringLiteral("help"), QStringLiteral("nosuch")}
                                        << "`capdeskctl help` lists the commands";
    QTest::addRow("an option get does not know")
        << QStringList{QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--bogus")}
        << "usage: capdeskctl get KEY";
    QTest::addRow("a flag of get given a value")
        << QStringList{QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--shape=1")}
        << "usage: capdeskctl get KEY";
    QTest::addRow("a flag given a value before the command")
        << QStringList{QStringLiteral("--shape=1"), QStringLiteral("invoke"), QStringLiteral("NOW")}
        << "usage: capdeskctl invoke KEY";
    QTest::addRow("a group without its command")
        << QStringList{QStringLiteral("token")} << "usage: capdeskctl token revoke ID";
    QTest::addRow("completion for another shell")
        << QStringList{QStringLiteral("completion"), QStringLiteral("zsh")} << "usage: capdeskctl completion";
}

// A command's usage error shows that command's usage and where its help is, not the
// whole table of commands; a line naming a command it does not know (or asking help of
// one) gets where the list of commands is, and only a line naming none gets the whole
// usage. Errors of what a command was given (a bad key file for serve) show their message
// alone: tst_capdeskctl_server checks that.
void TestCapdeskctlHelp::aUsageErrorShowsItsCommandsUsage()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, usage);
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run run = ctl(arguments + QStringList{QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 2);
    const QString err = QString::fromUtf8(run.err);
    const bool wholeUsage = err.contains(QStringLiteral("Exit codes:"));
    QCOMPARE(wholeUsage, usage.isEmpty());
    if (usage.isEmpty())
        return;
    const QStringList lines = err.split(u'\n');
    QVERIFY2(std::any_of(lines.cbegin(), lines.cend(),
                         [&usage](const QString &line) { return line.startsWith(usage); }),
             run.err.constData());
    if (!usage.startsWith(QStringLiteral("usage:"))) {
        QCOMPARE(lines.size(), 3); // the message, the pointer and the last newline
        return;
    }
    const QString command = usage.section(u' ', 2, 2);
    QVERIFY2(err.endsWith(QStringLiteral("`capdeskctl help %1` says what it does and the options it takes.\n")
                              .arg(command)),
             run.err.constData());
}

void TestCapdeskctlHelp::helpAndInapplicableOptions()
{
    const Run help = ctl({QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("usage: capdeskctl"));
    const Run sample = ctl({QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--sample")});
    QCOMPARE(sample.exitCode, 2);
    QVERIFY(sample.err.contains("--sample does not apply to get"));
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run clobber =
        ctl({QStringLiteral("export"), QStringLiteral("--db"), db(), QStringLiteral("--out=") + db()});
    QCOMPARE(clobber.exitCode, 2);
    QVERIFY(clobber.err.contains("would destroy it"));
    QVERIFY(SqlDirectoryStore::open(db()).ok());
    const Run dashes = ctl({QStringLiteral("--db"), db(), QStringLiteral("get"), QStringLiteral("--"),
                            QStringLiteral("--NOT_AN_OPTION")});
    QCOMPARE(dashes.exitCode, 3);
}

void TestCapdeskctlHelp::optionsMayStandAnywhere()
{
    QCOMPARE(ctl({QStringLiteral("--db"), db(), QStringLiteral("init"), QStringLiteral("--sample")}).exitCode,
             0);
    const Run run = ctl({QStringLiteral("--db=") + db(), QStringLiteral("get"), QStringLiteral("NOW")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.json().value(QStringLiteral("target")).toString(), QStringLiteral("now"));
}

void TestCapdeskctlHelp::helpNamesEveryCommand_data()
{
    QTest::addColumn<QString>("command");
    for (const QString &command : kCommands)
        QTest::addRow("%s", qPrintable(command)) << command;
}

void TestCapdeskctlHelp::helpNamesEveryCommand()
{
    QFETCH(QString, command);
    const Run help = ctl(QStringList{u"help"_s} + command.split(u' '));
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.startsWith("usage: capdeskctl " + command.toUtf8()), help.out.constData());
    QVERIFY2(help.out.contains("Options:\n"), help.out.constData());
    QVERIFY2(help.out.contains("--db FILE"), help.out.constData());
    QVERIFY(help.err.isEmpty());
    // `COMMAND --help` is the same page.
    QCOMPARE(ctl(command.split(u' ') + QStringList{u"--help"_s}).out, help.out);
    // The usage lists it, and lists nothing the table (kCommands) lacks.
    const Run usage = ctl({u"--help"_s});
    QVERIFY2(usage.out.contains("\n  " + command.toUtf8() + ' ')
                 || usage.out.contains("\n  " + command.toUtf8() + '\n'),
             usage.out.constData());
    static const QRegularExpression entry(u"^  ([a-z-]+(?: (?:create|list|revoke|new))?)(?: |$)"_s,
                                          QRegularExpression::MultilineOption);
    const QString list = QString::fromUtf8(usage.out).section(u"\nOnly init"_s, 0, 0);
    for (auto match = entry.globalMatch(list); match.hasNext();) {
        const QString listed = match.next().captured(1);
        QVERIFY2(kCommands.contains(listed), qPrintable(listed));
    }
}

void TestCapdeskctlHelp::helpOfAnUnknownCommand()
{
    const Run help = ctl({u"help"_s, u"frobnicate"_s});
    QCOMPARE(help.exitCode, 2);
    QVERIFY2(help.err.contains("help: no command 'frobnicate'"), help.err.constData());
    QVERIFY(help.out.isEmpty());
    const Run group = ctl({u"help"_s, u"token"_s});
    QCOMPARE(group.exitCode, 0);
    QVERIFY2(group.out.contains("usage: capdeskctl token create")
                 && group.out.contains("usage: capdeskctl token revoke ID"),
             group.out.constData());
    // The group's `--help` is the same page.
    const Run groupHelp = ctl({u"token"_s, u"--help"_s});
    QCOMPARE(groupHelp.exitCode, 0);
    QCOMPARE(groupHelp.out, group.out);
    // Help asks no server, so neither a server that is down nor a missing key stops it.
    const Run overServer = ctl({u"help"_s, u"get"_s, u"--server"_s, u"http://127.0.0.1:9"_s});
    QCOMPARE(overServer.exitCode, 0);
    QVERIFY2(overServer.out.startsWith("usage: capdeskctl get KEY"), overServer.out.constData());
    QVERIFY(overServer.out.contains("  --server URL ") && overServer.out.contains("  --ca-file FILE "));
    // A command that refuses --server does not offer it among its options.
    const Run localOnly = ctl({u"help"_s, u"serve"_s});
    QCOMPARE(localOnly.exitCode, 0);
    QVERIFY2(!localOnly.out.contains("  --server URL ") && !localOnly.out.contains("  --ca-file FILE ")
                 && localOnly.out.contains("--server is refused"),
             localOnly.out.constData());
}

void TestCapdeskctlHelp::optionsACommandDoesNotTake_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::addRow("init --out") << QStringList{u"init"_s, u"--out"_s, u"x"_s}
                                << u"--out does not apply to init"_s;
    QTest::addRow("get --shape") << QStringList{u"get"_s, u"K"_s, u"--shape"_s}
                                 << u"--shape does not apply to get"_s;
    QTest::addRow("lint --format=sql")
        << QStringList{u"lint"_s, u"--format=sql"_s} << u"--format does not apply to lint"_s;
    QTest::addRow("serve --token") << QStringList{u"serve"_s, u"--token"_s, u"T"_s}
                                   << u"--token does not apply to serve"_s;
    QTest::addRow("receipts --verify")
        << QStringList{u"receipts"_s, u"--verify"_s} << u"--verify does not apply to receipts"_s;
    QTest::addRow("log --limit") << QStringList{u"log"_s, u"--limit"_s, u"3"_s}
                                 << u"--limit does not apply to log"_s;
    QTest::addRow("token list --audience") << QStringList{u"token"_s, u"list"_s, u"--audience"_s, u"A"_s}
                                           << u"--audience does not apply to token list"_s;
    QTest::addRow("token revoke --label")
        << QStringList{u"token"_s, u"revoke"_s, u"ID"_s, u"--label"_s, u"L"_s}
        << u"--label does not apply to token revoke"_s;
    QTest::addRow("help --sample") << QStringList{u"help"_s, u"--sample"_s}
                                   << u"--sample does not apply to help"_s;
    QTest::addRow("an empty value") << QStringList{u"receipts"_s, u"--key="_s} << u"--key needs a value"_s;
    QTest::addRow("a flag given a value")
        << QStringList{u"invoke"_s, u"NOW"_s, u"--shape=1"_s} << u"--shape takes no value"_s;
    QTest::addRow("a flag given a value, before an option the command does not take")
        << QStringList{u"invoke"_s, u"NOW"_s, u"--shape=1"_s, u"--bogus"_s} << u"--shape takes no value"_s;
    QTest::addRow("a flag the command does not take, given a value")
        << QStringList{u"get"_s, u"NOW"_s, u"--shape=1"_s} << u"--shape does not apply to get"_s;
    QTest::addRow("a key missing") << QStringList{u"get"_s} << u"capdeskctl: get needs KEY"_s;
    QTest::addRow("an argument too many")
        << QStringList{u"get"_s, u"NOW"_s, u"EXTRA"_s} << u"'EXTRA' is one argument too many for get"_s;
    QTest::addRow("invoke without its key") << QStringList{u"invoke"_s} << u"invoke needs KEY"_s;
    QTest::addRow("restore missing its seq") << QStringList{u"restore"_s, u"NOW"_s} << u"restore needs SEQ"_s;
    QTest::addRow("init --sample=yes")
        << QStringList{u"init"_s, u"--sample=yes"_s} << u"--sample takes no value"_s;
    QTest::addRow("token create without its audience")
        << QStringList{u"token"_s, u"create"_s, u"--keys"_s, u"NOW"_s}
        << u"token create needs --audience A"_s;
    QTest::addRow("token create with a blank audience")
        << QStringList{u"token"_s, u"create"_s, u"--audience"_s, u"  "_s} << u"--audience needs a value"_s;
    const QStringList tokenForCi{u"token"_s, u"create"_s, u"--audience"_s, u"ci"_s};
    const QString noScope = u"token create needs --keys K,…, --categories C,… or --pin KEY"_s;
    QTest::addRow("token create without a scope") << tokenForCi << noScope;
    QTest::addRow("token create with a scope of commas")
        << tokenForCi + QStringList{u"--keys"_s, u" , "_s} << noScope;
    const QStringList tokenForNow = tokenForCi + QStringList{u"--keys"_s, u"NOW"_s};
    QTest::addRow("a risk ceiling neither low nor high")
        << tokenForNow + QStringList{u"--risk-ceiling"_s, u"medium"_s}
        << u"--risk-ceiling takes low or high, not 'medium'"_s;
    QTest::addRow("a pin beside a category")
        << tokenForCi + QStringList{u"--pin"_s, u"NOW"_s, u"--categories"_s, u"time"_s}
        << u"--pin NOW reaches NOW alone; leave out --keys and --categories"_s;
    QTest::addRow("a pin beside another key")
        << tokenForNow + QStringList{u"--pin"_s, u"ECHO"_s}
        << u"--pin ECHO reaches ECHO alone; leave out --keys and --categories"_s;
    const QString bytes =
        u"--payload-ceiling takes a whole number of bytes from 0 to 9223372036854775807, not "_s;
    QTest::addRow("a payload ceiling below 0")
        << tokenForNow + QStringList{u"--payload-ceiling=-5"_s} << bytes + u"'-5'"_s;
    QTest::addRow("a payload ceiling past 64 bits")
        << tokenForNow + QStringList{u"--payload-ceiling"_s, u"9223372036854775808"_s}
        << bytes + u"'9223372036854775808'"_s;
    QTest::addRow("a payload ceiling that is no number")
        << tokenForNow + QStringList{u"--payload-ceiling"_s, u"12k"_s} << bytes + u"'12k'"_s;
    QTest::addRow("an expiry that is neither a time nor a count")
        << tokenForNow + QStringList{u"--expires"_s, u"3x"_s}
        << u"--expires takes an ISO-8601 time or a count like 90m, 12h, 30d or 2w, not '3x'"_s;
    QTest::addRow("an expiry already passed")
        << tokenForNow + QStringList{u"--expires"_s, u"2020-01-01T00:00:00Z"_s}
        << u"--expires 2020-01-01T00:00:00Z has already passed (2020-01-01T00:00:00.000Z)"_s;
    QTest::addRow("an expiry of no time at all")
        << tokenForNow + QStringList{u"--expires"_s, u"0d"_s} << u"--expires 0d has already passed ("_s;
    QTest::addRow("an expiry past the year 9999")
        << tokenForNow + QStringList{u"--expires"_s, u"999999w"_s}
        << u"--expires 999999w is too far ahead (the latest is the year 9999)"_s;
    QTest::addRow("a token's value given to revoke")
        << QStringList{u"token"_s, u"revoke"_s, u"cdt_secretvalue"_s}
        << u"token revoke takes the token's id (tok_… in token list), not its value"_s;
    QTest::addRow("an audience without a token")
        << QStringList{u"invoke"_s, u"NOW"_s, u"--audience"_s, u"bot"_s}
        << u"--audience applies to a call with --token T"_s;
    QTest::addRow("owner presence without a token")
        << QStringList{u"invoke"_s, u"NOW"_s, u"--owner-present"_s}
        << u"--owner-present applies to a call with --token T"_s;
    QTest::addRow("invoke with a token and no audience")
        << QStringList{u"invoke"_s, u"NOW"_s, u"--token"_s, u"T"_s}
        << u"invoke --token T needs --audience A"_s;
    QTest::addRow("invoke --token with a token's id")
        << QStringList{u"invoke"_s, u"NOW"_s, u"--token"_s, u"tok_jjgiut35"_s, u"--audience"_s, u"ci"_s}
        << u"tok_jjgiut35 is a token's id; --token takes the token's value, shown once when it was made"_s;
    QTest::addRow("token revoke without its id")
        << QStringList{u"token"_s, u"revoke"_s} << u"token revoke needs ID"_s;
    QTest::addRow("token list given an argument")
        << QStringList{u"token"_s, u"list"_s, u"ALL"_s} << u"'ALL' is one argument too many for token list"_s;
    QTest::addRow("token alone") << QStringList{u"token"_s} << u"token needs create, list or revoke"_s;
    QTest::addRow("token frob") << QStringList{u"token"_s, u"frob"_s}
                                << u"unknown token command 'frob' (create, list or revoke)"_s;
}

void TestCapdeskctlHelp::optionsACommandDoesNotTake()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = ctl(arguments + QStringList{u"--db"_s, db()});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(!run.out.contains("cdt_") && !run.err.contains("cdt_"));
    QVERIFY(!QFileInfo::exists(db()));
}

void TestCapdeskctlHelp::versionIsTheProjects()
{
    const QByteArray expected = "capdeskctl " CAPDESK_PROJECT_VERSION "\n";
    QCOMPARE(ctl({u"--version"_s}).out, expected);
    // With a command it still only answers the version, touching no directory.
    const Run withCommand = ctl({u"init"_s, u"--version"_s, u"--db"_s, db()});
    QCOMPARE(withCommand.exitCode, 0);
    QCOMPARE(withCommand.out, expected);
    QVERIFY(!QFileInfo::exists(db()));
}

// The installed capdeskctl(1) is `help --man`: every command and every option it takes has
// its entry, and groff reads it without one warning.
void TestCapdeskctlHelp::manPageCoversTheTable()
{
    const Run man = ctl({u"help"_s, u"--man"_s});
    QCOMPARE(man.exitCode, 0);
    QVERIFY2(man.out.startsWith(".TH CAPDESKCTL 1 \"\" \"Capdesk " CAPDESK_PROJECT_VERSION "\""),
             man.out.left(80));
    static const QRegularExpression option(u"^  (?:-h, )?(--[a-z-]+)"_s, QRegularExpression::MultilineOption);
    for (const QString &command : kCommands) {
        QVERIFY2(man.out.contains(".SS \"" + command.toUtf8().replace("-", "\\-") + "\"\n"),
                 qPrintable(command));
        const QString help = QString::fromUtf8(ctl(QStringList{u"help"_s} + command.split(u' ')).out);
        for (auto matches = option.globalMatch(help); matches.hasNext();) {
            const QString name = matches.next().captured(1);
            QVERIFY2(man.out.contains("\\fB" + name.toUtf8().replace("-", "\\-") + "\\fR"),
                     qPrintable(command + u' ' + name));
        }
    }
    QFile page(m_dir->filePath(u"capdeskctl.1"_s));
    QVERIFY(page.open(QIODevice::WriteOnly));
    page.write(man.out);
    page.close();
    const ProcessRun::Result groff =
        ProcessRun::run(u"groff"_s, {u"-man"_s, u"-Tutf8"_s, u"-ww"_s, u"-z"_s, page.fileName()});
    QCOMPARE(groff.exitCode, 0);
    QVERIFY2(groff.err.isEmpty(), groff.err.constData());
    const Run withCommand = ctl({u"help"_s, u"--man"_s, u"get"_s});
    QCOMPARE(withCommand.exitCode, 2);
    QVERIFY(withCommand.err.contains("takes no command"));
}

void TestCapdeskctlHelp::completionCompletes_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QStringList>("expected");
    QTest::addRow("a command") << u"tok"_s << QStringList{u"token"_s};
    QTest::addRow("all commands starting so") << u"re"_s << QStringList{u"receipts"_s, u"restore"_s};
    QTest::addRow("a group's member") << u"token c"_s << QStringList{u"create"_s};
    QTest::addRow("a member's option") << u"token create --aud"_s << QStringList{u"--audience"_s};
    QTest::addRow("a common option") << u"get --d"_s << QStringList{u"--db"_s};
    QTest::addRow("an option's words") << u"export --format "_s << QStringList{u"json"_s, u"sql"_s};
    QTest::addRow("an option's words after =") << u"export --format=s"_s << QStringList{u"sql"_s};
    QTest::addRow("after an option's value") << u"--db x.db inv"_s << QStringList{u"invoke"_s};
    QTest::addRow("after --db=FILE") << u"--db=x.db export --fo"_s << QStringList{u"--format"_s};
    QTest::addRow("after a URL, which bash splits at :")
        << u"--server https://h.example:8787 tok"_s << QStringList{u"token"_s};
    QTest::addRow("a FILE option") << u"verify-receipt --public-key ke"_s << QStringList{u"key.pem"_s};
    QTest::addRow("a FILE argument") << u"import ro"_s << QStringList{u"rows.json"_s};
    QTest::addRow("help's commands") << u"help mcp"_s << QStringList{u"mcp-tools"_s, u"mcp"_s};
    QTest::addRow("serve's own option") << u"serve --owner-key-"_s << QStringList{u"--owner-key-file"_s};
    QTest::addRow("a flag takes no value")
        << u"invoke --shape --tok"_s << QStringList{u"--token"_s, u"--token-file"_s};
}

// The script bash sources, run as bash runs it: COMP_LINE and COMP_POINT set, then the
// function; in a folder holding key.pem and rows.json for the file cases.
void TestCapdeskctlHelp::completionCompletes()
{
    QFETCH(QString, line);
    QFETCH(QStringList, expected);
    const Run script = ctl({u"completion"_s, u"bash"_s});
    QCOMPARE(script.exitCode, 0);
    QVERIFY(script.out.contains("complete -F _capdeskctl capdeskctl"));
    QFile file(m_dir->filePath(u"capdeskctl.bash"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(script.out);
    file.close();
    for (const QString &name : {u"key.pem"_s, u"rows.json"_s}) {
        QFile touched(m_dir->filePath(name));
        QVERIFY(touched.open(QIODevice::WriteOnly));
    }
    const QString run =
        u"cd \"$1\" && source \"$2\" && COMP_LINE=\"capdeskctl $3\" && COMP_POINT=${#COMP_LINE} && "
        "_capdeskctl && printf '%s\\n' \"${COMPREPLY[@]}\""_s;
    const ProcessRun::Result completed =
        ProcessRun::run(u"bash"_s, {u"-c"_s, run, u"bash"_s, m_dir->path(), file.fileName(), line});
    QCOMPARE(completed.exitCode, 0);
    QVERIFY2(completed.err.isEmpty(), completed.err.constData());
    QStringList offered = QString::fromUtf8(completed.out).split(u'\n', Qt::SkipEmptyParts);
    offered.sort();
    expected.sort();
    QCOMPARE(offered, expected);
    QCOMPARE(ctl({u"completion"_s, u"zsh"_s}).exitCode, 2);
}

QTEST_GUILESS_MAIN(TestCapdeskctlHelp)
#include "tst_capdeskctl_help.moc"
