/**
 * Who gets which item next: the queue rules (docs/assignment.md has the same with examples).
 * Every rule is enforced here, on the server, under concurrency.
 *
 * Places and k. Every ordinary item (not practice, not gold) gets exactly k = Study.overlap
 * annotators for MAIN work; with Study.conditions, every item x condition gets k. A *place* is a
 * MAIN assignment that is not RELEASED. An item (x condition) with k places is not offered again.
 * Practice (PRACTICE), pre-assigned (AGREEMENT) and gold items hold no place, nor do model
 * agents' assignments (Assignment.agent: lib/assignment/agents.ts has their own queue).
 *
 * Leases. A new MAIN assignment of an ordinary item gets leaseExpiresAt = now +
 * Study.firstItemLeaseSeconds (the first-item lease, 2 minutes by default: a place handed out but
 * never started, e.g. to a bot or to someone who closed the tab at once, returns to the pool
 * quickly); its first event batch makes it STARTED with now + Study.leaseSeconds, and every stored
 * event batch extends it (lib/responses/events.ts, at most about once a minute per assignment),
 * and so does serving it again. An open (ASSIGNED/STARTED) assignment whose lease has passed is
 * releasable: the candidate search treats its place as free, and whoever claims the item first
 * sets it RELEASED (`sweepStudy` does the same for a whole study). Until then its owner keeps
 * it, and serving it to them renews the lease. A RELEASED assignment never counts toward k and is
 * never handed out again; (itemId, userId) is unique, so nobody gets an item twice, whatever its
 * fate. A late submission to a RELEASED assignment is stored (lib/responses/responses.ts) and takes its place
 * back only when the item still has room.
 *
 * Order of service (one participant):
 * 1. the study must be OPEN (else "paused", "closed" or "not_open") and the participant not
 *    EXCLUDED, TIMED_OUT or RETURNED (else that status with its reason; any open work is released);
 *    past Study.sessionTimeLimitSeconds from StudyMember.startedAt (set when their first item is
 *    handed out) they become TIMED_OUT and their open work is released;
 * 2. open practice, then the next practice item (import order, to everyone, outside k);
 * 3. practice pass mark (Study.practicePassMark): once every practice item is answered, a share of
 *    correct answers below the mark makes the participant EXCLUDED ("practice below pass mark"), and
 *    no real item is handed out while a practice answer is still on its way ("wait"). A
 *    participant a researcher re-included (ACTIVE with a status reason) is not gated again;
 * 4. open assignments (pre-assigned AGREEMENT first, then MAIN, in queue order);
 * 5. quota (Study.itemsPerParticipant): MAIN assignments that are not RELEASED, gold included,
 *    count; once reached: "quota" (opsentry's page marks the participant COMPLETE);
 * 6. gold (Study.goldRate): the g-th gold item of a participant is due at queue index
 *    floor((g + u) / goldRate), u in [0, 1) from md5(userId, g): one gold item per block of
 *    1 / goldRate items, at a random place in the block. Gold items hold no place and have no k:
 *    any number of participants get each of them, each participant at most once, in their md5
 *    order. Gold is only mixed in while ordinary work is left. The exclusion rule is evaluated on
 *    each gold submission (lib/responses/responses.ts);
 * 7. new ordinary work, chosen in this order:
 *    - conditions (Study.conditions), strictly balanced: a participant only takes a condition
 *      they have used least, so each person's per-condition counts never differ by more than one
 *      and every person sees every condition in equal shares. When no item is left for them in
 *      those conditions, they are done (the remaining places go to others). A person gets an item
 *      in at most one condition (the unique index);
 *    - Latin square: within a condition, items whose (import order index + the participant's
 *      join order index) mod conditions equals the condition's index come first. With k people
 *      in each of the C lists who do every item, every item x condition gets exactly k people and
 *      nobody waits (the classic design); with more people, dropouts or quotas, the rule still
 *      fills every item x condition to k as long as enough participants come (places are claimed
 *      on demand, never reserved for a list). An item of another list is taken only when none of
 *      the participant's own is free in an allowed condition, and never while one of theirs is
 *      merely busy (being claimed by someone else): then the next round, or "wait". Taking
 *      another list's place under contention would leave one of that list without an item;
 *    - balance tag (Study.balanceTag): the participant's least-used value of the tag first
 *      (missing tag: its own value); a preference, since the values may have different sizes;
 *    - the participant's order (participant-order.ts: a keyed permutation, per person, of one
 *      shared md5 order of the items): every person meets items in a random order of their own,
 *      the same on every device;
 * 8. nothing left: "wait" while the browser still holds assignments it excluded, else "done".
 * An annotator holds at most MAX_OPEN_ASSIGNMENTS open on-demand assignments (the item on
 * screen, one prefetched, one submitted offline); past that, "wait".
 *
 * Concurrency. A request runs in one short transaction that holds an advisory lock on
 * (study, participant) only, so one person's parallel requests (two tabs, a prefetch) are served
 * one after the other, and nobody waits for anybody else. Candidates are read without any lock;
 * a place is then claimed with pg_try_advisory_xact_lock on the item (on the base case for probe
 * families), a release of its expired leases, and a conditional insert that re-counts the places
 * in a fresh statement (READ COMMITTED: it sees every claim committed before the lock was taken).
 * A busy item is skipped, not waited for; when every candidate was busy or filled meanwhile, the
 * candidates are read again (a few rounds), then "wait". No lock is ever waited for while
 * another is held, so there are no deadlocks.
 *
 * Probe families (GridWM-Judge). Consistency is measured within
 * a person, so the items of one base case go to the same annotator(s). A kind declares its
 * families in lib/tasks (`assignment.family`: GridWM-Judge's probes of one case share the `env`
 * and `group` tags; its items without a `group` are ordinary items). The rule, for MAIN work only:
 * - Ownership: an annotator holds a base case once they have a MAIN assignment (not RELEASED) to
 *   any of its items. A base case has at most k holders (k x conditions with conditions); an
 *   annotator who does not hold it may take one of its items only while it has fewer holders
 *   (and then holds it). So with k = 1 a family is never split, and with k > 1 each of k
 *   annotators takes the whole family. The per-item count < k check stays as well.
 * - Spacing: a further item of a held base case is due when at least g other items (any
 *   purpose) were assigned to the annotator since the last member of that base case (measured
 *   with Assignment.position), g = the family kind's `minGap` of the study's settings of the kind
 *   (GridWM-Judge's `probeMinGap` in Study.taskSettings, default 5), lowered to what the annotator's work
 *   allows so that members are spread evenly when there is too little else: (other items since
 *   the last member + other items they could still get) / items of the base case left, rounded
 *   down; never below 1 (never adjacent while anything else can separate them).
 *   Order of service: due family items; then new base cases (started early, so that the rest of
 *   the queue is there to space their members), those with the fewest holders first, so that
 *   with k > 1 every family reaches k holders; then ordinary items; all in the annotator's md5
 *   order. A held item that is not due is served only when nothing else is left for the
 *   annotator, the one that waited longest first: spacing is best effort, and an annotator whose
 *   only remaining work is one family gets its members back to back rather than stalling
 *   (nobody else may take them).
 * - Balance: an annotator may start a new base case only while they hold fewer than
 *   ceil(base cases x k / people) of them, people being the study's ACTIVE and COMPLETE members
 *   (plus the asking annotator). This is a hard share, not a preference: if a member never
 *   works, their share of base cases waits for them (removing the member frees it); started
 *   families are always finished by their holders. Pre-assigned (AGREEMENT) items neither take
 *   nor need ownership; MAIN pre-assignments (assignItemsTo) are the researcher's explicit choice
 *   and are not checked against ownership.
 * A claim of a family item takes the base case's lock as well as the item's, so concurrent
 * requests cannot break k or ownership. The probe queries run only for studies that have probe
 * families.
 */

export { APPROXIMATE_AVAILABLE_ABOVE, forgetFreeItemsForTest, progressFor, type Progress } from "@/lib/assignment/progress";
export { MAX_OPEN_ASSIGNMENTS, PRACTICE_FAIL_REASON } from "@/lib/assignment/limits";
export { assignItemsTo } from "@/lib/assignment/pre-assign";
export { candidateSearchesForTest, goldDue, nextAssignment, type NextAssignment } from "@/lib/assignment/next";
export { endParticipation, reclaimReleasedPlace, releaseOpenWork } from "@/lib/repos/assignments";
export { sweepStudy } from "@/lib/assignment/sweep";
export type { Candidate } from "@/lib/assignment/types";
