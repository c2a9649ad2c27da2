#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/store/eventlog.h"

#include <QJsonObject>
#include <QList>
#include <QSqlDatabase>
#include <QString>

class PublicKey;
struct ReceiptLogAnchor;

// `log --verify` and the History tab's check: the event log's hash chain, every writer's
// receipt chain against its signed head, what those heads attest about the event log,
// and, given one, an anchor kept outside the file. Each problem is a finding with a
// stable code:
//   event_chain_broken          an event edited, removed or reordered (EventLog::verify)
//   event_log_wiped             the log is empty, yet SQLite's counter, a signed head or
//                               the anchor shows it held events
//   events_missing              the log ends before an event that the counter or a
//                               signed head shows
//   event_log_rewritten         an event is not the one a signed head attests
//   receipt_missing             a gap in a receipt chain, a link whose receipt is gone,
//                               or a chain that ends before its signed head
//   receipt_altered             a receipt's JSON no longer hashes to its link
//   receipt_chain_broken        a link that does not follow the one before it
//   receipt_unchained           a receipt written after the chains began with no link
//   receipt_chain_head_forged   a head whose signature no trusted key verifies
//   receipt_chain_other_key     a head signed by a key the directory lists that no signed
//                               succession links to the trusted keys
//   receipt_chain_head_mismatch a chain that goes past its signed head, or ends elsewhere
//   receipt_chain_head_missing  links with no head
//   receipt_chain_missing       a writer the event log names whose chain is gone
//   receipt_chain_origin_missing the record of where the chains began is gone
//   receipt_archive_forged      an archive whose seal no trusted key signed, or unreadable
//   receipt_archive_mismatch    an archive's rows differ from its seal, or do not take a
//                               chain on where the archive before left it
//   no_trusted_key              signed heads and no key to check them with
//   anchor_invalid              the anchor's own signature fails (the CLI also reports a
//                               file that is no anchor at all under this code)
//   anchor_key_unknown          the anchor is signed by a key none of `trustedKeys` is
//   anchor_events_truncated, anchor_events_rewritten,
//   anchor_receipts_truncated, anchor_receipts_rewritten
//                               the log is cut back past, or differs at, the anchor
// An archived stretch (ReceiptArchiver) counts as verified up to the hash its seal names,
// which the chain left in the directory must go on from.
// Receipts written before the chains (migration 0190) and not sealed yet are counted as
// pre-chain, not reported as tampering.
class ReceiptLogAudit final
{
public:
    struct Finding
    {
        QString code;
        QString message;
    };

    struct Report
    {
        EventLog::Verification events;
        qint64 receipts = 0;
        qint64 chains = 0;
        qint64 preChainReceipts = 0;
        qint64 archivedReceipts = 0; // moved out into segment files, as their seals say
        qint64 archives = 0;
        bool anchorChecked = false;
        QList<Finding> findings; // at most kMaxFindings, then one saying how many more
        qint64 findingCount = 0;

        bool intact() const { return findingCount == 0; }
        // Counts every finding and keeps the first kMaxFindings.
        void add(Finding finding);
        // The event log's verification members as before, plus "receipts", "findings"
        // and "anchor".
        QJsonObject toJson() const;
        // One line for the History tab.
        QString summary() const;
    };

    static constexpr qsizetype kMaxFindings = 100;

    // `trustedKeys`, and the keys the directory's signed successions link them to
    // (SigningKeySuccession), verify the chain heads; `anchor` may be null.
    static StoreResult<Report> run(const QSqlDatabase &db, const QList<PublicKey> &trustedKeys,
                                   const ReceiptLogAnchor *anchor = nullptr);
};
