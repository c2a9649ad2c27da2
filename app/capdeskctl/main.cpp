#include "app/capdeskctl/ctlcommands.h"
#include "dispatch/core/productversion.h"
#include "dispatch/receipts/opensslexit.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    OpenSslExit::leaveCleanupToProcessExit();
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Capdesk"));
    QCoreApplication::setApplicationName(QStringLiteral("capdesk"));
    QCoreApplication::setApplicationVersion(ProductVersion::number());
    return CtlCommands(CtlArguments::parse(QCoreApplication::arguments())).run();
}
