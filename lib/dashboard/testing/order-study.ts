import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { mulberry32 } from "@/lib/stats/rng";
import { createStudy, createUser } from "@/tests/db-helpers";

/**
 * A study of `items` order items (3 to 5 steps, tagged by them) each answered by three annotators,
 * two first candidates swapped at random (seeded) and a random confidence: enough answers to cross
 * a lowered "large" size, and disagreement for alpha. For the stored views' integration tests.
 */
export async function seedOrderStudy(items = 8, seed = 11) {
  const study = await createStudy({ overlap: 3 });
  const batch = await createBatch(study.id);
  const people = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
  const random = mulberry32(seed);
  for (let n = 0; n < items; n++) {
    const order = Array.from({ length: 3 + (n % 3) }, (_, i) => i);
    const item = await createOrderItem(study.id, batch.id, { externalId: `i${n}`, order, tags: { steps: order.length } });
    for (const person of people) {
      const given = order.slice();
      if (random() < 0.4) [given[0], given[1]] = [given[1], given[0]];
      await answer(item, person.id, given, { confidence: Math.round(random() * 4) / 4 });
    }
  }
  return { study, people, batch };
}
