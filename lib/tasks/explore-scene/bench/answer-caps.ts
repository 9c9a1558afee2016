/**
 * Benchmark for the explore-scene answer caps: run with
 * `npx tsx lib/tasks/explore-scene/bench/answer-caps.ts` (a kind's own benchmark lives in its folder,
 * lib/tasks/<kind>/bench/, since it names the kind: tests/kind-names.test.ts).
 * Times, for one answer at the caps (EXPLORE_ANSWER_LIMITS: objects, relations, text lengths):
 * validating it (the kind's answer schema, relation checks included) and scoring it with the
 * structured scorer against a 10-object key (what a submission costs the server), and the rejection
 * of an answer far above the caps (11,000 objects, the 891 KB body). As a reference in the
 * same run, JSON.parse of the answer's body, so the figures can be read as ratios on any machine.
 * Each figure is the median CPU time (process.cpuUsage) of 7 runs after one warm-up run.
 */
import { EXPLORE_ANSWER_LIMITS as L, exploreSceneAnswerSchema, exploreSceneKeySchema } from "@/lib/tasks/explore-scene";
import { exploreSceneFreeTextAnswerSchema } from "@/lib/tasks/explore-scene";
import { scoreStructured } from "@/lib/tasks/shared/explore/scorer";

const RUNS = 7;

/** Median CPU time (user + system, process.cpuUsage) of fn in ms: what a request costs the worker, less disturbed by other processes than wall time. */
function medianMs(fn: () => unknown, runs = RUNS): number {
  fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.cpuUsage();
    fn();
    const used = process.cpuUsage(t0);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

const words = [
  "white",
  "ceramic",
  "round",
  "wooden",
  "metal",
  "shiny",
  "small",
  "large",
  "red",
  "green",
  "plastic",
  "glass",
  "open",
  "closed",
  "empty",
  "full",
];
const nouns = [
  "bowl",
  "cup",
  "plate",
  "knife",
  "spoon",
  "pan",
  "pot",
  "kettle",
  "towel",
  "bottle",
  "jar",
  "lid",
  "board",
  "sink",
  "tap",
  "stove",
  "apple",
  "onion",
];

function answerOf(objects: number, relationsPerObject: number) {
  const list = Array.from({ length: objects }, (_, i) => {
    const category = `${nouns[i % nouns.length]} ${i}`;
    let description = "";
    while (description.length + 10 < L.descriptionChars) description += `${words[(i + description.length) % words.length]} `;
    return {
      category,
      description: description.trim(),
      relation: Array.from(
        { length: relationsPerObject },
        (_, r) => `${category} next to ${nouns[((i + 1 + r) % objects) % nouns.length]} ${(i + 1 + r) % objects}`,
      ),
    };
  });
  return { objects: list, text: "" };
}

const atCaps = answerOf(L.objects, Math.floor(L.relations / L.objects));
const atCapsBody = JSON.stringify(atCaps);
// the answer: 11,000 short objects (about 891 KB)
const huge = {
  objects: Array.from({ length: 11_000 }, (_, i) => ({ category: `o${i}`, description: "", relation: [`o${i} next to o${(i + 1) % 11_000}`] })),
  text: "",
};
const hugeBody = JSON.stringify(huge);
const key = exploreSceneKeySchema.parse({
  objects: nouns
    .slice(0, 10)
    .map((noun, i) => ({ category: noun, description: `${words[i]} ${words[i + 1]} ${noun}`, relation: [`${noun} next to ${nouns[(i + 1) % 10]}`] })),
});

const valid = exploreSceneAnswerSchema.safeParse(atCaps);
if (!valid.success) throw new Error(`the answer at the caps does not validate: ${valid.error.issues[0].message}`);
if (exploreSceneAnswerSchema.safeParse(huge).success) throw new Error("the answer far above the caps validates");

const reference = medianMs(() => JSON.parse(atCapsBody), 21);
const validate = medianMs(() => exploreSceneAnswerSchema.safeParse(JSON.parse(atCapsBody)));
const score = medianMs(() => scoreStructured(valid.data, key));
let freeText = "";
for (let i = 0; freeText.length + 80 < L.freeTextChars; i++)
  freeText += `The ${words[i % words.length]} ${nouns[i % nouns.length]} is on the ${nouns[(i + 3) % nouns.length]} near the ${nouns[(i + 5) % nouns.length]}. `;
const freeAnswer = exploreSceneFreeTextAnswerSchema.parse({ objects: [], text: freeText.trim() });
const scoreText = medianMs(() => scoreStructured(freeAnswer, key));
const reject = medianMs(() => exploreSceneAnswerSchema.safeParse(JSON.parse(hugeBody)));

const line = (what: string, ms: number) =>
  console.log(`${what.padEnd(62)} ${ms.toFixed(2).padStart(8)} ms   ${(ms / reference).toFixed(1).padStart(7)} x reference`);
console.log(
  `answer at the caps: ${L.objects} objects, ${Math.floor(L.relations / L.objects) * L.objects} relations, ${(atCapsBody.length / 1024).toFixed(0)} KB; far above: 11,000 objects, ${(hugeBody.length / 1024).toFixed(0)} KB`,
);
line("reference: JSON.parse of the answer at the caps", reference);
line("JSON.parse + validate, at the caps", validate);
line("structured score at the caps (10-object key)", score);
line("JSON.parse + reject, 11,000 objects", reject);
line("validate + score at the caps (one submission's CPU)", validate + score);
line(`structured score of free text at its cap (${L.freeTextChars} characters)`, scoreText);
