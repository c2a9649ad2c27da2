#include "dispatch/lint/linter.h"
#include "dispatch/store/sampledirectory.h"

#include <QTest>

using namespace Qt::StringLiterals;

// One table row per rule case (SPEC §8): a compliant variant and a violating one for every
// rule, each judged against a small directory so the whole-directory rules have neighbours.
class TestLinter : public QObject
{
    Q_OBJECT

private slots:
    void rules_data();
    void rules();
    void everyRuleIsListedOnce();
    void sampleDirectoryIsCompliant();
    void remoteDirectorySkipsBuiltinCheck();
    void relinkAfterAnEdit_data();
    void relinkAfterAnEdit();
    void lintIsLintOwnThenLinked();
};

namespace {

QString docs(const QString &key, const QString &args = QStringLiteral("$1=text"),
             const QString &example = QStringLiteral("hi"))
{
    return QStringLiteral("# WHAT: Do one thing.\n# WHEN_TO_USE: a caller needs it.\n# ARGS: %2\n"
                          "# EX: [%1]%3[/%1]\n# OUTPUT: a string")
        .arg(key, args, example);
}

Row make(const QString &key, const QString &type, const QString &target, const QString &payload)
{
    Row row;
    row.key = key;
    row.type = type;
    row.target = target;
    row.category = QStringLiteral("tools");
    row.content = docs(key) + (payload.isEmpty() ? QString() : QLatin1Char('\n') + payload);
    return row;
}

Row fnRow(const QString &key = QStringLiteral("ECHO_IT"))
{
    return make(key, QStringLiteral("fn"), QStringLiteral("echo"), QStringLiteral("[\"$1\"]"));
}

Row httpRow()
{
    return make(QStringLiteral("GET_THING"), QStringLiteral("http"),
                QStringLiteral("GET https://api.example.com/t?q=$1"), {});
}

Row agentRow()
{
    Row row = make(QStringLiteral("ASK_IT"), QStringLiteral("agent"), QStringLiteral("grok-4.3"),
                   QStringLiteral("Answer briefly."));
    row.includes = QStringLiteral("BLOCK_A");
    return row;
}

Row flowRow(const QString &key, const QString &steps)
{
    return make(key, QStringLiteral("flow"), {}, steps);
}

// Neighbours for the whole-directory rules: BLOCK_A..C include each other in a line,
// LOOP_A and LOOP_B are flows calling each other.
QList<Row> neighbours()
{
    Row a = agentRow();
    a.key = QStringLiteral("BLOCK_A");
    a.content = docs(a.key) + QStringLiteral("\nBe kind.");
    a.includes = QStringLiteral("BLOCK_B");
    Row b = a;
    b.key = QStringLiteral("BLOCK_B");
    b.content = docs(b.key) + QStringLiteral("\nBe brief.");
    b.includes.clear();
    return {fnRow(),
            httpRow(),
            a,
            b,
            flowRow(QStringLiteral("LOOP_A"), QStringLiteral("LOOP_B: $1")),
            flowRow(QStringLiteral("LOOP_B"), QStringLiteral("LOOP_A: $1"))};
}

Row with(Row row, const QString &column, const QVariant &value)
{
    row.setValue(column, value);
    return row;
}

Row withContent(Row row, const QString &content)
{
    row.content = content;
    return row;
}

Row agent(const QString &key, const QString &includes)
{
    Row row =
        make(key, QStringLiteral("agent"), QStringLiteral("grok-4.3"), QStringLiteral("Answer briefly."));
    row.includes = includes;
    return row;
}

QStringList codesOf(const QList<LintFinding> &findings)
{
    QStringList codes;
    for (const LintFinding &finding : findings)
        codes.append(finding.code);
    return codes;
}

} // namespace

void TestLinter::rules_data()
{
    QTest::addColumn<Row>("row");
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("violated");

    const Row fn = fnRow();
    const Row http = httpRow();
    const QString body = QStringLiteral("\n[\"$1\"]");
    const QString key = fn.key;

    QTest::addRow("H001 ok") << fn << "H001" << false;
    QTest::addRow("H001 lower case") << with(fn, QStringLiteral("key"), QStringLiteral("echo_it")) << "H001"
                                     << true;
    QTest::addRow("H001 one letter") << with(fn, QStringLiteral("key"), QStringLiteral("E")) << "H001"
                                     << true;
    QTest::addRow("H001 65 long") << with(fn, QStringLiteral("key"), QString(65, QLatin1Char('A'))) << "H001"
                                  << true;
    QTest::addRow("H002 ok") << fn << "H002" << false;
    QTest::addRow("H002 none") << with(fn, QStringLiteral("category"), QString()) << "H002" << true;

    QTest::addRow("H010 ok") << fn << "H010" << false;
    QTest::addRow("H010 untagged first line")
        << withContent(fn, QStringLiteral("# Echo it.\n") + fn.content) << "H010" << false;
    QTest::addRow("H010 missing") << withContent(
        fn, QString(fn.content).remove(QStringLiteral("# WHAT: Do one thing.\n")))
                                  << "H010" << true;
    QTest::addRow("H011 ok") << fn << "H011" << false;
    QTest::addRow("H011 missing") << withContent(
        fn, QString(fn.content).remove(QStringLiteral("# WHEN_TO_USE: a caller needs it.\n")))
                                  << "H011" << true;
    QTest::addRow("H012 ok") << fn << "H012" << false;
    QTest::addRow("H012 missing") << withContent(
        fn, QString(fn.content).remove(QStringLiteral("# ARGS: $1=text\n")))
                                  << "H012" << true;
    QTest::addRow("H013 ok") << fn << "H013" << false;
    QTest::addRow("H013 missing") << withContent(
        fn, QString(fn.content).remove(QStringLiteral("# EX: [ECHO_IT]hi[/ECHO_IT]\n")))
                                  << "H013" << true;
    QTest::addRow("H014 ok") << fn << "H014" << false;
    QTest::addRow("H014 stale key") << withContent(
        fn,
        docs(key).replace(QStringLiteral("[ECHO_IT]hi[/ECHO_IT]"), QStringLiteral("[ECHO_OLD]hi[/ECHO_OLD]"))
            + body) << "H014" << true;
    QTest::addRow("H014 no brackets") << withContent(
        fn, docs(key).replace(QStringLiteral("[ECHO_IT]hi[/ECHO_IT]"), QStringLiteral("ECHO_IT hi")) + body)
                                      << "H014" << true;
    QTest::addRow("H015 ok") << fn << "H015" << false;
    QTest::addRow("H015 missing on fn")
        << withContent(fn, docs(key).remove(QStringLiteral("\n# OUTPUT: a string")) + body) << "H015" << true;
    QTest::addRow("H015 not asked of agents") << withContent(
        agentRow(), docs(QStringLiteral("ASK_IT")).remove(QStringLiteral("\n# OUTPUT: a string")))
                                              << "H015" << false;
    QTest::addRow("H016 ok") << fn << "H016" << false;
    QTest::addRow("H016 too long") << withContent(
        fn, docs(key).replace(QStringLiteral("Do one thing."), QString(201, QLatin1Char('x'))) + body)
                                   << "H016" << true;

    QTest::addRow("H020 ok") << http << "H020" << false;
    QTest::addRow("H020 no method") << with(http, QStringLiteral("target"),
                                            QStringLiteral("https://api.example.com"))
                                    << "H020" << true;
    QTest::addRow("H020 unknown method")
        << with(http, QStringLiteral("target"), QStringLiteral("FETCH https://a.example")) << "H020" << true;
    QTest::addRow("H020 relative url")
        << with(http, QStringLiteral("target"), QStringLiteral("GET /api/x")) << "H020" << true;
    QTest::addRow("H020 ftp") << with(http, QStringLiteral("target"), QStringLiteral("GET ftp://a.example/x"))
                              << "H020" << true;
    QTest::addRow("H021 ok") << agentRow() << "H021" << false;
    QTest::addRow("H021 empty") << with(agentRow(), QStringLiteral("target"), QString()) << "H021" << true;
    QTest::addRow("H026 host written out")
        << with(http, QStringLiteral("target"), QStringLiteral("GET https://api.example.com/$1?q=$2"))
        << "H026" << false;
    QTest::addRow("H026 host from an arg")
        << with(http, QStringLiteral("target"), QStringLiteral("GET https://$1/x")) << "H026" << true;
    QTest::addRow("H026 subdomain from an arg")
        << with(http, QStringLiteral("target"), QStringLiteral("GET https://$1.example.com/x")) << "H026"
        << true;
    QTest::addRow("H026 port from an arg")
        << with(http, QStringLiteral("target"), QStringLiteral("GET http://127.0.0.1:$2/x")) << "H026"
        << true;
    QTest::addRow("H026 raw rest as host")
        << with(http, QStringLiteral("target"), QStringLiteral("POST https://$$1+")) << "H026" << true;
    QTest::addRow("H026 binding as host")
        << with(http, QStringLiteral("target"), QStringLiteral("GET https://$TARGET_HOST/x")) << "H026"
        << true;
    QTest::addRow("H026 arg in the query only")
        << with(http, QStringLiteral("target"), QStringLiteral("GET https://a.example?u=https://$1"))
        << "H026" << false;
    QTest::addRow("H022 ok") << fn << "H022" << false;
    QTest::addRow("H022 unknown") << with(fn, QStringLiteral("target"), QStringLiteral("no_such_fn"))
                                  << "H022" << true;

    QTest::addRow("H023 ok") << flowRow(QStringLiteral("RUN_IT"), QStringLiteral("ECHO_IT: $1\n> GET_THING"))
                             << "H023" << false;
    QTest::addRow("H023 unclosed") << flowRow(QStringLiteral("RUN_IT"), QStringLiteral("{ ECHO_IT: $1"))
                                   << "H023" << true;
    QTest::addRow("H023 empty") << flowRow(QStringLiteral("RUN_IT"), QString()) << "H023" << true;
    QTest::addRow("H024 ok") << flowRow(QStringLiteral("RUN_IT"), QStringLiteral("ECHO_IT: $1 > GET_THING"))
                             << "H024" << false;
    QTest::addRow("H024 unknown") << flowRow(QStringLiteral("RUN_IT"),
                                             QStringLiteral("ECHO_IT: $1 > NO_SUCH_KEY"))
                                  << "H024" << true;
    QTest::addRow("H025 ok") << flowRow(QStringLiteral("RUN_IT"), QStringLiteral("ECHO_IT: $1")) << "H025"
                             << false;
    QTest::addRow("H025 self") << flowRow(QStringLiteral("RUN_IT"), QStringLiteral("ECHO_IT: $1 > RUN_IT"))
                               << "H025" << true;
    QTest::addRow("H025 through another")
        << flowRow(QStringLiteral("LOOP_A"), QStringLiteral("LOOP_B: $1")) << "H025" << true;

    QTest::addRow("H030 ok bearer") << with(http, QStringLiteral("auth"), QStringLiteral("bearer:API_KEY"))
                                    << "H030" << false;
    QTest::addRow("H030 ok query param")
        << with(http, QStringLiteral("auth"), QStringLiteral("query:api_key=MAPS_KEY")) << "H030" << false;
    QTest::addRow("H030 unknown prefix")
        << with(http, QStringLiteral("auth"), QStringLiteral("token:API_KEY")) << "H030" << true;
    QTest::addRow("H030 no name") << with(http, QStringLiteral("auth"), QStringLiteral("bearer:")) << "H030"
                                  << true;
    QTest::addRow("H031 ok") << http << "H031" << false;
    QTest::addRow("H031 sk- key in content")
        << withContent(fn, fn.content + QStringLiteral("\n# key sk-abcdefghijklmnop1234")) << "H031" << true;
    QTest::addRow("H031 AKIA in target") << with(
        http, QStringLiteral("target"), QStringLiteral("GET https://a.example/x?k=AKIAIOSFODNN7EXAMPLE"))
                                         << "H031" << true;
    QTest::addRow("H031 bearer literal")
        << withContent(fn, fn.content + QStringLiteral("\n# Authorization: Bearer abcdefghijklmnopqrstu"))
        << "H031" << true;
    QTest::addRow("H031 random string in examples")
        << with(fn, QStringLiteral("examples"), QStringLiteral("[\"q8ZtR2vLx9KpW4mN7bYc3HdJ6fGsA1eU\"]"))
        << "H031" << true;
    QTest::addRow("H031 hex digest is fine") << withContent(
        fn,
        fn.content + QStringLiteral("\n# e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
                                             << "H031" << false;

    QTest::addRow("H040 ok rest last")
        << withContent(fn, docs(key, QStringLiteral("$1=a | $2+=b")) + QStringLiteral("\n[\"$1\",\"$2+\"]"))
        << "H040" << false;
    QTest::addRow("H040 rest before another")
        << withContent(fn, docs(key, QStringLiteral("$1+=a | $2=b")) + QStringLiteral("\n[\"$1+\",\"$2\"]"))
        << "H040" << true;
    QTest::addRow("H041 ok") << fn << "H041" << false;
    QTest::addRow("H041 undeclared") << withContent(fn, docs(key) + QStringLiteral("\n[\"$1\",\"$2\"]"))
                                     << "H041" << true;
    QTest::addRow("H041 none declared, none used")
        << withContent(fn, docs(key, QStringLiteral("none"), {})) << "H041" << false;

    QTest::addRow("H050 ok") << with(fn, QStringLiteral("input_schema"),
                                     QStringLiteral("{\"type\":\"object\",\"properties\":{}}"))
                             << "H050" << false;
    QTest::addRow("H050 not json") << with(fn, QStringLiteral("input_schema"), QStringLiteral("{not json"))
                                   << "H050" << true;
    QTest::addRow("H050 array") << with(fn, QStringLiteral("input_schema"), QStringLiteral("[]")) << "H050"
                                << true;
    QTest::addRow("H050 bad properties")
        << with(fn, QStringLiteral("input_schema"), QStringLiteral("{\"properties\":1}")) << "H050" << true;
    QTest::addRow("H051 ok") << with(fn, QStringLiteral("examples"), QStringLiteral("[\"a\",\"b\"]"))
                             << "H051" << false;
    QTest::addRow("H051 numbers") << with(fn, QStringLiteral("examples"), QStringLiteral("[1,2]")) << "H051"
                                  << true;
    QTest::addRow("H051 object") << with(fn, QStringLiteral("examples"), QStringLiteral("{}")) << "H051"
                                 << true;
    QTest::addRow("H052 ok") << with(fn, QStringLiteral("examples"), QStringLiteral("[\"a\"]")) << "H052"
                             << false;
    QTest::addRow("H052 too many") << with(fn, QStringLiteral("examples"), QStringLiteral("[\"a|b\"]"))
                                   << "H052" << true;
    QTest::addRow("H052 rest takes more") << withContent(
        fn, docs(key, QStringLiteral("$1+=a"), QStringLiteral("a|b")) + QStringLiteral("\n[\"$1+\"]"))
                                          << "H052" << false;

    QTest::addRow("H060 ok") << agentRow() << "H060" << false;
    QTest::addRow("H060 unknown") << with(agentRow(), QStringLiteral("includes"),
                                          QStringLiteral("BLOCK_A, NO_SUCH"))
                                  << "H060" << true;
    QTest::addRow("H061 ok") << agentRow() << "H061" << false;
    QTest::addRow("H061 self") << with(agentRow(), QStringLiteral("includes"), QStringLiteral("ASK_IT"))
                               << "H061" << true;
    QTest::addRow("H061 back through a block")
        << with(with(agentRow(), QStringLiteral("key"), QStringLiteral("BLOCK_B")),
                QStringLiteral("includes"), QStringLiteral("BLOCK_A"))
        << "H061" << true;
}

void TestLinter::rules()
{
    QFETCH(Row, row);
    QFETCH(QString, code);
    QFETCH(bool, violated);

    const DirectoryIndex index = DirectoryIndex::build(neighbours());
    const QList<LintFinding> findings = Linter(index).lint(row);
    QStringList codes;
    for (const LintFinding &finding : findings) {
        codes.append(finding.code);
        QVERIFY2(!finding.message.isEmpty(), qPrintable(finding.code));
        QCOMPARE(finding.key, row.key);
    }
    QVERIFY2(codes.contains(code) == violated, qPrintable(codes.join(QLatin1Char(' '))));
}

void TestLinter::everyRuleIsListedOnce()
{
    QStringList codes;
    for (const RuleInfo &rule : Linter::rules()) {
        QVERIFY(!codes.contains(rule.code));
        QVERIFY(rule.severity == QLatin1String("error") || rule.severity == QLatin1String("warning"));
        codes.append(rule.code);
    }
    for (const char *code :
         {"H001", "H010", "H011", "H012", "H013", "H014", "H015", "H020", "H021", "H022", "H023", "H024",
          "H025", "H026", "H030", "H031", "H040", "H041", "H050", "H051", "H052", "H060", "H061"})
        QVERIFY2(codes.contains(QLatin1String(code)), code);
}

void TestLinter::sampleDirectoryIsCompliant()
{
    const StoreResult<QList<Row>> rows = SampleDirectory::rows();
    QVERIFY(rows.ok());
    QCOMPARE(rows.value().size(), 44);
    const DirectoryIndex index = DirectoryIndex::build(rows.value());
    for (const Row &row : rows.value()) {
        const QList<LintFinding> findings = Linter(index).lint(row);
        QVERIFY2(findings.isEmpty(),
                 qPrintable(row.key + QLatin1Char(' ')
                            + (findings.isEmpty() ? QString() : findings.first().message)));
    }
}

void TestLinter::remoteDirectorySkipsBuiltinCheck()
{
    const Row row = with(fnRow(), QStringLiteral("target"), QStringLiteral("server_only_fn"));
    const DirectoryIndex index = DirectoryIndex::build({row});
    QVERIFY(!Linter(index, true).lint(row).isEmpty());
    QVERIFY(Linter(index, false).lint(row).isEmpty());
}

// An edit of one row changes the link findings of rows that reach it, which are not
// linted again but relinked: their previous findings with the link rules checked anew.
void TestLinter::relinkAfterAnEdit_data()
{
    QTest::addColumn<QList<Row>>("directory");
    QTest::addColumn<QList<Row>>("written"); // rows created or changed by the edit
    QTest::addColumn<QStringList>("deleted");
    QTest::addColumn<QString>("referrer");
    QTest::addColumn<QStringList>("codes"); // the referrer's findings after the edit

    const Row echo = fnRow();
    const Row echoTwo = fnRow(QStringLiteral("ECHO_TWO"));
    const Row pair = flowRow(QStringLiteral("PAIR"), QStringLiteral("ECHO_IT: $1 > ECHO_TWO: $PREV"));
    const Row renamed = fnRow(QStringLiteral("ECHO_2"));
    QTest::addRow("flow step deleted")
        << QList<Row>{echo, echoTwo, pair} << QList<Row>{} << QStringList{QStringLiteral("ECHO_TWO")}
        << "PAIR" << QStringList{u"H024"_s};
    QTest::addRow("flow step renamed")
        << QList<Row>{echo, echoTwo, pair} << QList<Row>{renamed} << QStringList{QStringLiteral("ECHO_TWO")}
        << "PAIR" << QStringList{u"H024"_s};
    QTest::addRow("missing flow step created")
        << QList<Row>{echo, pair} << QList<Row>{echoTwo} << QStringList{} << "PAIR" << QStringList{};

    const Row block = agent(QStringLiteral("BLOCK_A"), {});
    const Row ask = agent(QStringLiteral("ASK_IT"), QStringLiteral("BLOCK_A"));
    const Row uncategorised = with(ask, QStringLiteral("category"), QString());
    QTest::addRow("include deleted") << QList<Row>{block, ask} << QList<Row>{} << QStringList{u"BLOCK_A"_s}
                                     << "ASK_IT" << QStringList{u"H060"_s};
    QTest::addRow("include deleted, own finding kept")
        << QList<Row>{block, uncategorised} << QList<Row>{} << QStringList{u"BLOCK_A"_s} << "ASK_IT"
        << QStringList{u"H002"_s, u"H060"_s};
    QTest::addRow("missing include created, own finding kept")
        << QList<Row>{uncategorised} << QList<Row>{block} << QStringList{} << "ASK_IT"
        << QStringList{u"H002"_s};

    const Row c = agent(QStringLiteral("BLOCK_C"), {});
    const Row b = agent(QStringLiteral("BLOCK_B"), QStringLiteral("BLOCK_C"));
    const Row a = agent(QStringLiteral("BLOCK_A"), QStringLiteral("BLOCK_B"));
    QTest::addRow("include cycle closed")
        << QList<Row>{a, b} << QList<Row>{agent(QStringLiteral("BLOCK_B"), QStringLiteral("BLOCK_A"))}
        << QStringList{} << "BLOCK_A" << QStringList{u"H061"_s};
    QTest::addRow("include cycle closed two rows away")
        << QList<Row>{a, b, c} << QList<Row>{agent(QStringLiteral("BLOCK_C"), QStringLiteral("BLOCK_A"))}
        << QStringList{} << "BLOCK_A" << QStringList{u"H061"_s};
    QTest::addRow("include cycle opened")
        << QList<Row>{a, b, agent(QStringLiteral("BLOCK_C"), QStringLiteral("BLOCK_A"))} << QList<Row>{c}
        << QStringList{} << "BLOCK_A" << QStringList{};

    const Row loopA = flowRow(QStringLiteral("LOOP_A"), QStringLiteral("LOOP_B: $1"));
    QTest::addRow("flow cycle closed")
        << QList<Row>{echo, loopA, flowRow(QStringLiteral("LOOP_B"), QStringLiteral("ECHO_IT: $1"))}
        << QList<Row>{flowRow(QStringLiteral("LOOP_B"), QStringLiteral("LOOP_A: $1"))} << QStringList{}
        << "LOOP_A" << QStringList{u"H025"_s};
    QTest::addRow("flow cycle opened")
        << QList<Row>{echo, loopA, flowRow(QStringLiteral("LOOP_B"), QStringLiteral("LOOP_A: $1"))}
        << QList<Row>{flowRow(QStringLiteral("LOOP_B"), QStringLiteral("ECHO_IT: $1"))} << QStringList{}
        << "LOOP_A" << QStringList{};
}

void TestLinter::relinkAfterAnEdit()
{
    QFETCH(QList<Row>, directory);
    QFETCH(QList<Row>, written);
    QFETCH(QStringList, deleted);
    QFETCH(QString, referrer);
    QFETCH(QStringList, codes);

    DirectoryIndex index = DirectoryIndex::build(directory);
    const Linter linter(index);
    QHash<QString, Row> rows;
    QHash<QString, QList<LintFinding>> before;
    for (const Row &row : std::as_const(directory)) {
        rows.insert(row.key, row);
        before.insert(row.key, linter.lint(row));
    }

    QSet<QString> moved;
    for (const QString &key : std::as_const(deleted)) {
        rows.remove(key);
        if (index.remove(key))
            moved.insert(key);
    }
    for (const Row &row : std::as_const(written)) {
        rows.insert(row.key, row);
        if (index.update(row))
            moved.insert(row.key);
    }
    QVERIFY(index.reaching(moved).contains(referrer));
    const QList<LintFinding> relinked = linter.relink(referrer, before.value(referrer));
    QCOMPARE(codesOf(relinked), codes);
    // The same answer as linting the referrer again against the edited directory.
    const DirectoryIndex rebuilt = DirectoryIndex::build(rows.values());
    QCOMPARE(relinked, Linter(rebuilt).lint(rows.value(referrer)));
}

// lint() is the row's own rules, then the link rules: the two steps lint-all runs apart.
void TestLinter::lintIsLintOwnThenLinked()
{
    QList<Row> rows = neighbours();
    rows.append(with(agentRow(), QStringLiteral("includes"), QStringLiteral("NO_SUCH_BLOCK,ASK_IT")));
    rows.append(with(flowRow(QStringLiteral("BROKEN"), QStringLiteral("NO_SUCH_STEP: $1")),
                     QStringLiteral("category"), QString()));
    const DirectoryIndex index = DirectoryIndex::build(rows);
    const Linter linter(index);
    for (const Row &row : std::as_const(rows)) {
        const RowLint own = linter.lintOwn(row);
        QCOMPARE(own.flowKeys, DirectoryIndex::flowKeysOf(row));
        QCOMPARE(own.includes, DirectoryIndex::includesOf(row));
        QCOMPARE(linter.linked(row.key, own), linter.lint(row));
        QCOMPARE(linter.relink(row.key, own.findings), linter.lint(row));
    }
    QCOMPARE(codesOf(linter.lint(rows.last())), (QStringList{u"H002"_s, u"H024"_s}));
}

QTEST_GUILESS_MAIN(TestLinter)
#include "tst_linter.moc"
