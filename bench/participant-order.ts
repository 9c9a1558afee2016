/**
 * What a participant's order of a study's items costs (lib/assignment/participant-order.ts): run
 * with `npx tsx bench/participant-order.ts`. The reference, measured in the same run, is what the
 * order would cost as a hash of (user, item) for every item, sorted; the permutation walk finds a
 * participant's first 50 items (what the candidate pool asks for) and, for comparison, their whole
 * order. Figures are medians over participants, per participant and process.
 */
import { hash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { participantPermutation, rankOrder, walkParticipantOrder } from "@/lib/assignment/participant-order";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (run: () => void) => {
  const start = performance.now();
  run();
  return performance.now() - start;
};

console.log("| items | hash of (user, item) per item, sorted (reference) | first 50 of the walk | ratio | whole walk | ratio |");
console.log("|---|---|---|---|---|---|");
for (const n of [20, 1_000, 100_000]) {
  const ids = Array.from({ length: n }, (_, i) => `item-${String(i).padStart(7, "0")}`);
  const byRank = rankOrder(ids);
  const users = Array.from({ length: n >= 100_000 ? 31 : 101 }, (_, i) => `user-${i}`);
  // warm the JIT on this size before measuring
  for (const user of users.slice(0, 5)) walkParticipantOrder(byRank, participantPermutation(user, n), () => true);
  const reference = users.map((user) =>
    time(() => {
      const keys = ids.map((id) => hash("md5", `${user}:${id}`, "hex"));
      Uint32Array.from(ids.keys()).sort((x, y) => (keys[x] < keys[y] ? -1 : keys[x] > keys[y] ? 1 : 0));
    }),
  );
  const first = users.map((user) =>
    time(() => {
      let found = 0;
      walkParticipantOrder(byRank, participantPermutation(user, n), () => ++found < 50);
    }),
  );
  const whole = users.map((user) => time(() => walkParticipantOrder(byRank, participantPermutation(user, n), () => true)));
  const [r, f, w] = [median(reference), median(first), median(whole)];
  console.log(`| ${n.toLocaleString("en")} | ${r.toFixed(3)} ms | ${f.toFixed(3)} ms | ${(f / r).toFixed(3)} | ${w.toFixed(3)} ms | ${(w / r).toFixed(3)} |`);
}
