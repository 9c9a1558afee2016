import { MEDIA_EVENT_TYPES } from "@/lib/tasks/shared/media/events";
import { watchFigures, type WatchFigures } from "@/lib/tasks/shared/media/watch-figures";
import type { StudySnapshot } from "@/lib/dashboard/types";
import type { KindDashboardData } from "@/lib/tasks/dashboard-port";
import type { RecordedEvent } from "@/lib/tasks/types";

/**
 * Watch time and share watched per item for a kind's dashboard section (the generic kinds'
 * dashboard.ts call it): the player events (lib/tasks/shared/media/events.ts) of every submitted,
 * non-practice answer in the (filtered) snapshot to items of `kinds`, read in one query ordered by
 * assignment and seq, reduced by watchStats. Items without a video count with zero watch time.
 */
export async function loadWatchFigures(data: KindDashboardData, studyId: string, snapshot: StudySnapshot, kinds: readonly string[]): Promise<WatchFigures> {
  const inSnapshot = new Set<string>();
  const items: Array<{ id: string; externalId: string }> = [];
  const kindSet = new Set(kinds);
  snapshot.items.ids.forEach((id, index) => {
    if (kindSet.has(snapshot.items.kinds[index])) items.push({ id, externalId: snapshot.items.externalIds[index] });
  });
  for (let r = 0; r < snapshot.responses.count; r++) {
    const item = snapshot.responses.item[r];
    if (kindSet.has(snapshot.items.kinds[item])) inSnapshot.add(`${snapshot.items.ids[item]}|${snapshot.annotators[snapshot.responses.annotator[r]].id}`);
  }
  if (items.length === 0) return watchFigures([], []);
  const rows = await data.mediaEventsOfAnswers(studyId, kinds, MEDIA_EVENT_TYPES);
  const answers = new Map<string, { itemId: string; events: RecordedEvent[] }>();
  for (const row of rows) {
    if (!inSnapshot.has(`${row.itemId}|${row.userId}`)) continue;
    let answer = answers.get(row.assignmentId);
    if (!answer) answers.set(row.assignmentId, (answer = { itemId: row.itemId, events: [] }));
    if (row.type !== null) answer.events.push({ type: row.type, payload: row.payload });
  }
  items.sort((x, y) => x.externalId.localeCompare(y.externalId));
  return watchFigures([...answers.values()], items);
}
