// The floor bench_startup compares capdesk with: what any Qt Widgets program pays to show
// a table of 44 rows, traced with capdesk's own start-up trace and settle rule.
#include "tests/bench/benchcommandline.h"
#include "views/common/startuptrace.h"

#include <QApplication>
#include <QMainWindow>
#include <QTableWidget>

namespace {

constexpr int kRows = 44;
constexpr int kColumns = 5;

} // namespace

int main(int argc, char *argv[])
{
    StartupTrace::begin();
    QApplication app(argc, argv);
    if (const auto exit = BenchCommandLine::check(app.arguments(), "bench_bare_window", 0))
        return *exit;
    QMainWindow window;
    auto *table = new QTableWidget(kRows, kColumns, &window);
    for (int row = 0; row < kRows; ++row) {
        for (int column = 0; column < kColumns; ++column)
            table->setItem(row, column,
                           new QTableWidgetItem(QStringLiteral("cell %1.%2").arg(row).arg(column)));
    }
    window.setCentralWidget(table);
    window.resize(1100, 700);
    StartupTrace::watchPaints(table->viewport());
    window.show();
    return QApplication::exec();
}
