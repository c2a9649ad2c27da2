#include "dispatch/contract/contractdocument.h"
#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/store/sampledirectory.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/fixturegenerator.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

// The contract document of SPEC §9: each part there when the row has it and gone when it
// does not, self-contained for a reader who knows nothing, and near-constant in size.
class TestContractDocument : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void sections_data();
    void sections();
    void callExampleIsTheRowsOwnJson_data();
    void callExampleIsTheRowsOwnJson();
    void selfContained_data();
    void selfContained();
    void typicalSizeIsHalfTheArticles_data();
    void typicalSizeIsHalfTheArticles();
    void estimateTokens_data();
    void estimateTokens();
    void registryBytesIsTheSumOfTheDocuments();

private:
    QList<Row> m_sample;
    QList<Row> m_generated;
};

namespace {

Row fnRow(const QString &key, const QString &content)
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = QStringLiteral("echo");
    row.content = content;
    return row;
}

const QString kDocumented = QStringLiteral("# WHAT: Echoes its argument back.\n"
                                           "# WHEN_TO_USE: When a caller needs its words back.\n"
                                           "# ARGS: $1=text\n"
                                           "# EX: [ECHO]hello[/ECHO]\n"
                                           "# OUTPUT: the text\n"
                                           "[\"$1\"]");

// The JSON of the document's call example (the fenced block under "## Call").
QJsonObject callExample(const QString &markdown)
{
    static const QRegularExpression block(QStringLiteral("```json\\n(.*)\\n```"));
    const QRegularExpressionMatch match = block.match(markdown);
    return match.hasMatch() ? QJsonDocument::fromJson(match.captured(1).toUtf8()).object() : QJsonObject();
}

QList<Row> readRows(const QString &path)
{
    StoreResult<std::shared_ptr<SqlDirectoryStore>> store = SqlDirectoryStore::open(path);
    if (!store.ok())
        return {};
    StoreResult<QList<Row>> rows = store.value()->allRows();
    return rows.ok() ? rows.value() : QList<Row>();
}

qsizetype bytesOf(const Row &row)
{
    return ContractDocument::render(row).toUtf8().size();
}

} // namespace

void TestContractDocument::initTestCase()
{
    const StoreResult<QList<Row>> sample = SampleDirectory::rows();
    QVERIFY(sample.ok());
    m_sample = sample.value();
    QCOMPARE(m_sample.size(), 44);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("g891.db"));
    QCOMPARE(FixtureGenerator::makeDatabase(path, 891), QString());
    m_generated = readRows(path);
    QCOMPARE(m_generated.size(), 891);
}

void TestContractDocument::sections_data()
{
    QTest::addColumn<Row>("row");
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<QStringList>("absent");

    const QStringList always{QStringLiteral("# ECHO\n"),
                             QStringLiteral("- **Arguments:** "),
                             QStringLiteral("- **Runs:** "),
                             QStringLiteral("- **Risk:** "),
                             QStringLiteral("## Call"),
                             QStringLiteral("`POST /api/dispatch`"),
                             QStringLiteral("split on `|`"),
                             QStringLiteral("`$N+`"),
                             QStringLiteral("`result`"),
                             QStringLiteral("## Proof"),
                             QStringLiteral("GET /api/dispatch?confirm=")};

    const Row documented = fnRow(QStringLiteral("ECHO"), kDocumented);
    QTest::addRow("documented fn") << documented
                                   << always
                                          + QStringList{QStringLiteral("\nEchoes its argument back.\n"),
                                                        QStringLiteral("- **When to use:** When a caller"),
                                                        QStringLiteral("- **Arguments:** $1=text\n"),
                                                        QStringLiteral("- **Output:** the text\n"),
                                                        QStringLiteral("builtin function `echo`"),
                                                        QStringLiteral("- **Risk:** low."),
                                                        ContractFingerprint::of(documented)}
                                   << QStringList{QStringLiteral("**Auth:**"),
                                                  QStringLiteral("**Disabled:**"),
                                                  QStringLiteral("**Input schema:**"),
                                                  QStringLiteral("This row's last argument"),
                                                  QStringLiteral("not documented")};

    QTest::addRow("no doc lines")
        << fnRow(QStringLiteral("ECHO"), QStringLiteral("[\"$1\",\"$2\"]"))
        << always + QStringList{QStringLiteral("- **Arguments:** `$1` "), QStringLiteral("`$2`")}
        << QStringList{QStringLiteral("**When to use:**"), QStringLiteral("**Output:**"),
                       QStringLiteral("not documented")};

    Row http = fnRow(QStringLiteral("ECHO"), kDocumented);
    http.type = QStringLiteral("http");
    http.target = QStringLiteral("GET https://api.example.com/echo?q=$1");
    http.auth = QStringLiteral("bearer:API_TOKEN");
    http.inputSchema =
        QStringLiteral("{ \"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}} }");
    QTest::addRow("http with auth and schema")
        << http
        << always
               + QStringList{QStringLiteral("HTTP request `GET https://api.example.com/echo?q=$1`"),
                             QStringLiteral("`HTTP <status>:<response body>`"),
                             QStringLiteral("- **Auth:** bearer with secret `API_TOKEN`"),
                             QStringLiteral(
                                 "- **Input schema:** "
                                 "`{\"properties\":{\"text\":{\"type\":\"string\"}},\"type\":\"object\"}`")}
        << QStringList{QStringLiteral("**Disabled:**")};

    Row risky = fnRow(QStringLiteral("ECHO"), kDocumented);
    risky.sensitive = true;
    risky.enabled = false;
    QTest::addRow("sensitive and disabled")
        << risky
        << always
               + QStringList{QStringLiteral("- **Risk:** high"), QStringLiteral("`risk_ceiling`"),
                             QStringLiteral("- **Disabled:** ")}
        << QStringList{QStringLiteral("- **Risk:** low")};

    Row rest =
        fnRow(QStringLiteral("ECHO"),
              QString(kDocumented).replace(QStringLiteral("$1=text"), QStringLiteral("$1=key | $2+=json")));
    QTest::addRow("rest argument") << rest
                                   << always + QStringList{QStringLiteral("This row's last argument is one.")}
                                   << QStringList();

    Row agent = fnRow(QStringLiteral("ECHO"), kDocumented);
    agent.type = QStringLiteral("agent");
    agent.target = QStringLiteral("grok-4");
    QTest::addRow("agent") << agent
                           << always
                                  + QStringList{QStringLiteral("model `grok-4`"),
                                                QStringLiteral("the body is the user message")}
                           << QStringList{QStringLiteral("builtin")};

    Row flow = fnRow(QStringLiteral("ECHO"), QStringLiteral("# WHAT: Both.\nNOW > UPPER: $PREV"));
    flow.type = QStringLiteral("flow");
    flow.target.clear();
    QTest::addRow("flow") << flow
                          << always + QStringList{QStringLiteral("a flow with steps calling `NOW`, `UPPER`")}
                          << QStringList{QStringLiteral("builtin")};

    // "see content" points at what the page does not show: the template speaks instead.
    Row vague = fnRow(QStringLiteral("ECHO"),
                      QString(kDocumented).replace(QStringLiteral("$1=text"), QStringLiteral("see content")));
    QTest::addRow("free-text ARGS") << vague << always + QStringList{QStringLiteral("- **Arguments:** `$1` ")}
                                    << QStringList{QStringLiteral("see content")};

    Row none = fnRow(QStringLiteral("ECHO"), QStringLiteral("# WHAT: The time.\n# ARGS: none\n"));
    none.target = QStringLiteral("now");
    QTest::addRow("no arguments") << none << always + QStringList{QStringLiteral("- **Arguments:** none\n")}
                                  << QStringList();
}

void TestContractDocument::sections()
{
    QFETCH(Row, row);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);

    const QString markdown = ContractDocument::render(row);
    for (const QString &text : std::as_const(present))
        QVERIFY2(markdown.contains(text),
                 qPrintable(QStringLiteral("missing %1 in:\n%2").arg(text, markdown)));
    for (const QString &text : std::as_const(absent))
        QVERIFY2(!markdown.contains(text),
                 qPrintable(QStringLiteral("unexpected %1 in:\n%2").arg(text, markdown)));
}

void TestContractDocument::callExampleIsTheRowsOwnJson_data()
{
    QTest::addColumn<QString>("example");
    QTest::addColumn<QString>("body");

    QTest::addRow("plain") << QStringLiteral("[ECHO]hello[/ECHO]") << QStringLiteral("hello");
    QTest::addRow("quotes, backslash, pipe")
        << QStringLiteral("[ECHO]say \"hi\"|C:\\temp[/ECHO]") << QStringLiteral("say \"hi\"|C:\\temp");
    QTest::addRow("JSON in the body") << QStringLiteral("[ECHO]ROUTER|{\"content\":\"a|b\"}[/ECHO]")
                                      << QStringLiteral("ROUTER|{\"content\":\"a|b\"}");
    QTest::addRow("no example") << QString() << QString();
}

void TestContractDocument::callExampleIsTheRowsOwnJson()
{
    QFETCH(QString, example);
    QFETCH(QString, body);

    const QString content =
        example.isEmpty() ? QStringLiteral("# WHAT: x\n") : QStringLiteral("# EX: ") + example;
    const QJsonObject call = callExample(ContractDocument::render(fnRow(QStringLiteral("ECHO"), content)));
    QCOMPARE(call.value(QStringLiteral("key")).toString(), QStringLiteral("ECHO"));
    QCOMPARE(call.value(QStringLiteral("body")).toString(), body);
}

void TestContractDocument::selfContained_data()
{
    QTest::addColumn<Row>("row");
    for (const Row &row : std::as_const(m_sample))
        QTest::addRow("sample %s", qPrintable(row.key)) << row;
    // One row of each shape the generator makes is enough to catch a template gone wrong.
    QSet<QString> shapes;
    for (const Row &row : std::as_const(m_generated)) {
        const QString shape = row.type + (row.auth.isEmpty() ? QString() : QStringLiteral("+auth"))
                              + (row.inputSchema.isEmpty() ? QString() : QStringLiteral("+schema"))
                              + (row.enabled ? QString() : QStringLiteral("+disabled"));
        if (!shapes.contains(shape)) {
            shapes.insert(shape);
            QTest::addRow("generated %s", qPrintable(row.key)) << row;
        }
    }
}

// Everything a caller needs is on the page: the key, how to call, a call that parses and
// names this row, how to check the receipt against this row's fingerprint; and nothing
// points at what the page leaves out.
void TestContractDocument::selfContained()
{
    QFETCH(Row, row);

    const QString markdown = ContractDocument::render(row);
    QVERIFY(markdown.startsWith(QStringLiteral("# %1\n").arg(row.key)));
    QCOMPARE(callExample(markdown).value(QStringLiteral("key")).toString(), row.key);
    QVERIFY(markdown.contains(QStringLiteral("Contract fingerprint `%1`").arg(ContractFingerprint::of(row))));
    for (const QString &needed :
         {QStringLiteral("`POST /api/dispatch`"), QStringLiteral("GET /api/dispatch?confirm="),
          QStringLiteral("PROVEN_MATERIAL_RESULT"), QStringLiteral("`$N+`"), QStringLiteral("- **Runs:** "),
          QStringLiteral("- **Risk:** ")})
        QVERIFY2(markdown.contains(needed), qPrintable(needed));
    static const QRegularExpression leftover(QStringLiteral("%\\d"));
    QVERIFY2(!markdown.contains(leftover), qPrintable(markdown));
    for (const QString &dangling :
         {QStringLiteral("see content"), QStringLiteral("see below"), QStringLiteral("not documented")})
        QVERIFY2(!markdown.contains(dangling, Qt::CaseInsensitive), qPrintable(markdown));
}

void TestContractDocument::typicalSizeIsHalfTheArticles_data()
{
    QTest::addColumn<QList<Row>>("rows");
    QTest::addRow("sample, 44 rows") << m_sample;
    QTest::addRow("generated, 891 rows") << m_generated;
}

// The article measured 4.4 KB a document; the aim is half of that for a typical (median)
// row, and near-constant: no row far beyond it.
void TestContractDocument::typicalSizeIsHalfTheArticles()
{
    QFETCH(QList<Row>, rows);

    std::vector<qsizetype> sizes;
    for (const Row &row : std::as_const(rows))
        sizes.push_back(bytesOf(row));
    std::sort(sizes.begin(), sizes.end());
    const qsizetype median = sizes[sizes.size() / 2];
    QVERIFY2(median <= 2200, qPrintable(QString::number(median)));
    QVERIFY2(sizes.back() <= 2 * median,
             qPrintable(QStringLiteral("%1 > 2 × %2").arg(sizes.back()).arg(median)));
}

void TestContractDocument::estimateTokens_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("tokens");

    QTest::addRow("empty") << QString() << 0;
    QTest::addRow("four bytes") << QStringLiteral("abcd") << 1;
    QTest::addRow("five bytes round up") << QStringLiteral("abcde") << 2;
    QTest::addRow("UTF-8 bytes, not characters") << QStringLiteral("ééé") << 2;
    QTest::addRow("2,200 bytes") << QString(2200, u'x') << 550;
}

void TestContractDocument::estimateTokens()
{
    QFETCH(QString, text);
    QFETCH(int, tokens);
    QCOMPARE(ContractDocument::estimateTokens(text), tokens);
}

void TestContractDocument::registryBytesIsTheSumOfTheDocuments()
{
    QCOMPARE(ContractDocument::registryBytes({}), 0);
    qint64 sum = 0;
    for (const Row &row : std::as_const(m_sample))
        sum += bytesOf(row);
    QCOMPARE(ContractDocument::registryBytes(m_sample), sum);
}

QTEST_GUILESS_MAIN(TestContractDocument)
#include "tst_contractdocument.moc"
