/** Entry i of an OpenEQA-shaped release (open-eqa-v0.json's fields), its episode one of two; `extra` as its extra_answers. */
export const openEqaQuestion = (i: number, extra?: string[]) => ({
  question: `Where is object ${i}?`,
  answer: `Place ${i}`,
  category: "object localization",
  question_id: `q-${i}`,
  episode_history: `hm3d-v0/ep-${i % 2}`,
  ...(extra ? { extra_answers: extra } : {}),
});
