import "server-only";
import type { Candidate, StudyState } from "@/lib/assignment/types";
import type { Tx } from "@/lib/db/client-types";
import { countBaseCaseShare, findProbeCandidateRows } from "@/lib/repos/assignments";

/**
 * The probe-family rules of the queue (the doc comment of lib/assignment/index.ts): who may start
 * a base case, and the order of an annotator's candidates. The base cases themselves are SQL
 * (lib/repos/assignment-sql.ts baseCaseSql), from the kinds that declare `assignment.family`.
 */

/** May the annotator start a new base case: fewer held than their share, ceil(base cases x holders per base / people). */
async function mayStartBaseCase(tx: Tx, studyId: string, userId: string, holdersPerBase: number): Promise<boolean> {
  const row = await countBaseCaseShare(tx, studyId, userId);
  const bases = Number(row?.bases ?? 0);
  if (bases === 0) return false;
  const people = Math.max(1, Number(row?.people ?? 1));
  return Number(row?.held ?? 0) < Math.ceil((bases * holdersPerBase) / people);
}

/**
 * The annotator's next main items in a study with probe families: not had yet, a free place in
 * some condition, allowed by the probe-family rules (lib/assignment/index.ts); among those, due
 * family items first, then new base cases, then ordinary items, then family items that are not
 * due yet; lowest md5(userId:itemId) within each tier. One row per (item, condition with room).
 */
export async function probeCandidates(tx: Tx, studyId: string, userId: string, study: StudyState, position: number): Promise<Candidate[]> {
  const holdersPerBase = study.overlap * Math.max(1, study.conditions.length);
  const mayStart = await mayStartBaseCase(tx, studyId, userId, holdersPerBase);
  const rows = await findProbeCandidateRows(tx, studyId, userId, study, position, holdersPerBase, mayStart);
  return rows.map((row, index) => ({
    itemId: row.itemId,
    condition: row.conditions[0] ?? null,
    conditions: row.conditions,
    balance: row.balance,
    rank: index + 1,
    preferred: true,
    hash: row.hash,
    expired: row.expired,
    base: row.base,
    available: row.available,
  }));
}
