#pragma once

#include <QObject>

class FileActions;
class QAction;
class QWidget;

// File → Open PostgreSQL Directory…: the connection dialog, filled in from the last
// PostgreSQL directory opened, then FileActions opens what it names with its password,
// and a typed password goes into the keychain once the database has taken it.
class DatabaseOpenActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DatabaseOpenActions)

public:
    DatabaseOpenActions(FileActions &files, QWidget *dialogParent, QObject *parent = nullptr);

    QAction *openAction() const { return m_open; }
    void chooseAndOpen();

signals:
    void statusMessage(const QString &message);

private:
    FileActions &m_files;
    QWidget *m_dialogParent;
    QAction *m_open;
};
