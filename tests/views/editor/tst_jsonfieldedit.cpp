#include "views/editor/jsonfieldedit.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>

// The JSON editor's live check: where the error is, and that it stays quiet otherwise.
class TestJsonFieldEdit : public QObject
{
    Q_OBJECT

private slots:
    void badJsonShowsLineColumnAndMarksTheSpot_data();
    void badJsonShowsLineColumnAndMarksTheSpot();
    void validOrEmptyShowsNothing_data();
    void validOrEmptyShowsNothing();
    void typingEmitsEditedButSetTextDoesNot();
    void parseErrorTakesPrecedenceOverProblem();
    void setTextWithSameTextKeepsTheCursor();
};

void TestJsonFieldEdit::badJsonShowsLineColumnAndMarksTheSpot_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("messageStart");
    QTest::addColumn<QString>("marked");

    QTest::addRow("second line") << QStringLiteral("[1,\n 2 x]") << QStringLiteral("line 2, column 5")
                                 << QStringLiteral("x");
    QTest::addRow("unterminated string")
        << QStringLiteral("{\"a\": \"b}") << QStringLiteral("line 1, column 10") << QStringLiteral("}");
    QTest::addRow("missing value") << QStringLiteral("{\"type\": }") << QStringLiteral("line 1, column 11")
                                   << QStringLiteral("}");
    QTest::addRow("bad literal before a newline")
        << QStringLiteral("{\n  \"a\": tru\n}") << QStringLiteral("line 3, column 1") << QStringLiteral("u");
}

void TestJsonFieldEdit::badJsonShowsLineColumnAndMarksTheSpot()
{
    QFETCH(QString, text);
    QFETCH(QString, messageStart);
    QFETCH(QString, marked);

    JsonFieldEdit edit;
    edit.show();
    edit.resetText(text);
    QVERIFY2(edit.message().startsWith(messageStart), qPrintable(edit.message()));
    auto *label = edit.findChild<QLabel *>();
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), edit.message());

    const QList<QTextEdit::ExtraSelection> marks = edit.editor()->extraSelections();
    QCOMPARE(marks.size(), 1);
    QCOMPARE(marks.first().cursor.selectedText(), marked);
    QCOMPARE(marks.first().format.underlineStyle(), QTextCharFormat::WaveUnderline);
}

void TestJsonFieldEdit::validOrEmptyShowsNothing_data()
{
    QTest::addColumn<QString>("text");
    QTest::addRow("object") << QStringLiteral("{\"type\": \"object\"}");
    QTest::addRow("array") << QStringLiteral("[\"NOW|x\"]");
    QTest::addRow("empty") << QString();
    QTest::addRow("blank") << QStringLiteral("  \n ");
}

void TestJsonFieldEdit::validOrEmptyShowsNothing()
{
    QFETCH(QString, text);
    JsonFieldEdit edit;
    edit.show();
    edit.resetText(QStringLiteral("{bad"));
    QVERIFY(!edit.message().isEmpty());
    edit.resetText(text);
    QCOMPARE(edit.message(), QString());
    QCOMPARE(edit.errorOffset(), -1);
    QVERIFY(edit.editor()->extraSelections().isEmpty());
    QVERIFY(!edit.findChild<QLabel *>()->isVisible());
}

void TestJsonFieldEdit::typingEmitsEditedButSetTextDoesNot()
{
    JsonFieldEdit edit;
    edit.show();
    QSignalSpy edited(&edit, &JsonFieldEdit::edited);
    edit.setText(QStringLiteral("[]"));
    edit.resetText(QStringLiteral("[1]"));
    QCOMPARE(edited.size(), 0);

    edit.editor()->setFocus();
    edit.editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(edit.editor(), QStringLiteral(",2"));
    QCOMPARE(edited.size(), 2);
    QCOMPARE(edited.last().first().toString(), QStringLiteral("[1],2"));
    QVERIFY(!edit.message().isEmpty());
}

void TestJsonFieldEdit::parseErrorTakesPrecedenceOverProblem()
{
    JsonFieldEdit edit;
    edit.resetText(QStringLiteral("{}"));
    edit.setProblem(QStringLiteral("examples must be a JSON array of body strings"));
    QCOMPARE(edit.message(), QStringLiteral("examples must be a JSON array of body strings"));
    edit.setText(QStringLiteral("{"));
    QVERIFY(edit.message().startsWith(QStringLiteral("line 1")));
    edit.setText(QStringLiteral("[]"));
    edit.setProblem(QString());
    QCOMPARE(edit.message(), QString());
}

void TestJsonFieldEdit::setTextWithSameTextKeepsTheCursor()
{
    JsonFieldEdit edit;
    edit.resetText(QStringLiteral("[\"a\", \"b\"]"));
    QTextCursor cursor = edit.editor()->textCursor();
    cursor.setPosition(4);
    edit.editor()->setTextCursor(cursor);
    edit.setText(QStringLiteral("[\"a\", \"b\"]"));
    QCOMPARE(edit.editor()->textCursor().position(), 4);
    // A change after the cursor leaves it where it was.
    edit.setText(QStringLiteral("[\"a\", \"b\", \"c\"]"));
    QCOMPARE(edit.editor()->textCursor().position(), 4);
}

QTEST_MAIN(TestJsonFieldEdit)
#include "tst_jsonfieldedit.moc"
