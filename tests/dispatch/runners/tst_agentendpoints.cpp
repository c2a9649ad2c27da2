#include "dispatch/runners/agentendpoints.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

// The per-model base URLs an owner keeps in settings, shared by the GUI and capdeskctl.
class TestAgentEndpoints : public QObject
{
    Q_OBJECT

private slots:
    void defaultsWhenNothingIsSaved();
    void roundTripThroughSettings();
    void unusableEntriesAreDropped();
};

void TestAgentEndpoints::defaultsWhenNothingIsSaved()
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    const AgentEndpoints endpoints = AgentEndpoints::fromSettings(settings);
    QCOMPARE(endpoints.baseUrlFor(QStringLiteral("grok-4.3")),
             std::optional<QUrl>(QUrl(QStringLiteral("https://api.x.ai/v1"))));
    QCOMPARE(endpoints.baseUrlFor(QStringLiteral("gpt-4.1-mini")), std::nullopt);
}

void TestAgentEndpoints::roundTripThroughSettings()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.ini"));
    {
        QSettings settings(path, QSettings::IniFormat);
        AgentEndpoints({{QStringLiteral("gpt-*"), QUrl(QStringLiteral("http://127.0.0.1:8080/v1"))},
                        {QStringLiteral("grok-*"), QUrl(QStringLiteral("https://api.x.ai/v1"))}})
            .save(settings);
    }
    QSettings settings(path, QSettings::IniFormat);
    const AgentEndpoints endpoints = AgentEndpoints::fromSettings(settings);
    QCOMPARE(endpoints.entries().size(), 2);
    QCOMPARE(endpoints.baseUrlFor(QStringLiteral("gpt-4.1-mini")),
             std::optional<QUrl>(QUrl(QStringLiteral("http://127.0.0.1:8080/v1"))));
}

void TestAgentEndpoints::unusableEntriesAreDropped()
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    AgentEndpoints({{QStringLiteral("local-*"), QUrl(QStringLiteral("relative/path"))},
                    {QString(), QUrl(QStringLiteral("http://127.0.0.1/v1"))}})
        .save(settings);
    const AgentEndpoints endpoints = AgentEndpoints::fromSettings(settings);
    QCOMPARE(endpoints.baseUrlFor(QStringLiteral("local-model")), std::nullopt);
    QVERIFY(endpoints.baseUrlFor(QStringLiteral("grok-4.3")).has_value());
}

QTEST_GUILESS_MAIN(TestAgentEndpoints)
#include "tst_agentendpoints.moc"
