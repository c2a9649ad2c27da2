#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/lint/rules/lintfinding.h"
#include "dispatch/store/directorystore.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

class QIODevice;

struct ImportOptions
{
    // Rows that break hygiene rules (SPEC §8) are imported and listed instead of refused:
    // real production dumps hold rows older than the rules. Validity is never waived.
    bool allowNoncompliant = false;
    // Every updated_at / created_at that breaks V003 timestamp_form is replaced with the
    // import's time (one instant for the whole file) instead of refusing the file; valid
    // timestamps are kept, so the rows' history stays what the dump says.
    bool restamp = false;
};

struct ImportReport
{
    int imported = 0;
    // What a whole-database dump held besides the directory table, left out.
    QStringList skipped;
    // The error findings of the rows let in by allowNoncompliant.
    QList<LintFinding> noncompliant;
    // "KEY updated_at" for every timestamp --restamp replaced.
    QStringList restamped;

    // {"ok":true,"imported":N,"skipped":[…],"noncompliant":[findings],"noncompliant_rows":N,
    //  "noncompliant_unlisted":N,"restamped":[…]}: the findings of the first
    // DirectoryImporter::listedRows noncompliant rows, and how many rows there are in all
    // and beyond those.
    QJsonObject toJson() const;
};

// Brings rows from a file into a directory: a JSON array of rows (first non-blank
// character '[') or a SQL text dump (SqlDumpReader; of a whole database, only the
// `directory` table is taken). All or nothing: every row is checked before the store sees
// one, and the store writes the batch in one transaction. The checks, in order:
//  - the file reads (UTF-8, SQL or JSON, types), refusals starting with "line N: ";
//  - validity (RowValidator::checkValidity: V001–V005), always refused;
//  - keys repeated in the file or already in the store;
//    every row refused for these two is named (by line, key or position, and codes), up
//    to listedRows of them, then counted;
//  - hygiene (every error finding of the linter against the directory as it would be
//    after the import), refused unless allowNoncompliant, naming each row's codes.
class DirectoryImporter final
{
public:
    static StoreResult<ImportReport> importBytes(DirectoryStore &store, const QByteArray &bytes,
                                                 const ImportOptions &options = {});
    static StoreResult<ImportReport> importFile(DirectoryStore &store, const QString &path,
                                                const ImportOptions &options = {});
    static StoreResult<ImportReport> importDevice(DirectoryStore &store, QIODevice &device,
                                                  const ImportOptions &options = {});

    // Whether `error` is importDevice()'s refusal of rows that break only hygiene rules,
    // which ImportOptions::allowNoncompliant would let in.
    static bool isHygieneRefusal(const StoreError &error);

    // Rows named one by one in a refusal or in the noncompliant listing; the rest are counted.
    static constexpr int listedRows = 20;
    // A JSON file larger than this is refused unread (a SQL dump is streamed instead).
    static constexpr qint64 maxJsonBytes = 512LL * 1024 * 1024;
};
