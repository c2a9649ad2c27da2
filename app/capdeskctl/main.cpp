#include "app/capdeskctl/ctlcommands.h"
#include "dispatch/core/productversion.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Capdesk"));
    QCoreApplication::setApplicationName(QStringLiteral("capdesk"));
    QCoreApplication::setApplicationVersion(ProductVersion::number());
    return CtlCommands(CtlArguments::parse(QCoreApplication::arguments())).run();
}
