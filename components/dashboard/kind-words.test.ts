import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AccuracySection } from "@/components/dashboard/accuracy-section";
import { AgreementPlanDesign } from "@/components/dashboard/agreement-plan-section";
import { AgreementSection } from "@/components/dashboard/agreement-section";
import { planAnswersNote } from "@/components/dashboard/kind-words";
import { kindInfo } from "@/lib/dashboard/accuracy";
import { computeAgreement } from "@/lib/dashboard/agreement";

/**
 * Shared dashboard cards take their words from the study's kinds: a choice study's
 * dashboard says nothing of ENACT's TA / PA, its slots or EXPLORE-Bench's S_* scales; an ENACT or
 * EXPLORE study's still does, because its kinds say so.
 */
const text = (element: ReturnType<typeof createElement>) =>
  renderToStaticMarkup(element)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, " ");
const jargon = /\bTA\b|\bPA\b|ENACT|EXPLORE|S_obj|S_\*|\bslots?\b|forward|inverse/;

describe("shared dashboard cards in the kinds' own words", () => {
  it("the accuracy table's note names the points scales and example metrics of the study's kinds only", () => {
    const accuracy = (kinds: string[]) =>
      text(createElement(AccuracySection, { rows: [], modelRows: [], kinds: kinds.map(kindInfo), tagKey: "steps", tagValues: [], slug: "s" }));
    expect(accuracy(["choice"])).not.toMatch(jargon);
    expect(accuracy(["enact-forward"])).toMatch(/shares such as TA/);
    expect(accuracy(["enact-forward"])).toMatch(/ratios such as PA/);
    expect(accuracy(["enact-forward"])).not.toMatch(/S_obj|EXPLORE/);
    const explore = accuracy(["explore-scene"]);
    expect(explore).toMatch(/S_obj, S_uni and S_abn 0-100/);
    expect(explore).toMatch(/S_att, S_rel and S_key 0-5/);
  });

  it("the agreement plan names ENACT's design and its TA / PA only for ENACT's kinds", () => {
    const design = (kinds: string[]) => text(createElement(AgreementPlanDesign, { kinds: kinds.map(kindInfo), tagKey: "steps" }));
    const choice = design(["choice"]);
    expect(choice).not.toMatch(/\bTA\b|\bPA\b|ENACT's design|the paper/);
    expect(choice).toMatch(/for each task kind and each steps value/);
    const enact = design(["enact-forward", "enact-inverse"]);
    expect(enact).toMatch(/ENACT's design/);
    expect(enact).toMatch(/human TA \/ PA come from the main annotation/);
    // mixed kinds: the words no kind of them all shares are left out
    expect(design(["enact-forward", "choice"])).not.toMatch(/TA \/ PA/);
  });

  it("the note on agreement-plan answers cites a benchmark's table only when every kind is that benchmark's", () => {
    expect(planAnswersNote([kindInfo("choice")], 12, false)).toBe(
      "; accuracy and calibration come from the main annotation only: the 12 answers given for the agreement plan feed the agreement figures",
    );
    expect(planAnswersNote([kindInfo("choice")], 12, true)).toBe("; accuracy and calibration include the 12 answers given for the agreement plan");
    expect(planAnswersNote([kindInfo("enact-forward"), kindInfo("enact-inverse")], 12, false)).toMatch(/as in ENACT's table/);
    expect(planAnswersNote([kindInfo("enact-forward"), kindInfo("enact-inverse")], 12, true)).toMatch(
      /the paper reports human TA \/ PA from the main annotation only/,
    );
    expect(planAnswersNote([kindInfo("enact-forward"), kindInfo("choice")], 3, false)).not.toMatch(jargon);
  });

  it("the agreement card counts a kind's own units (slots, checks), never slots on an item-level encoding", () => {
    const ratings = (answers: string[]) => answers.map((choice, coder) => ({ coder, answer: { choice }, score: null }));
    const choice = computeAgreement(
      [
        { kind: "choice", tag: null, ratings: ratings(["A", "A"]) },
        { kind: "choice", tag: null, ratings: ratings(["B", "C"]) },
      ],
      2,
      { encodingId: "choice-nominal", level: "nominal", ci: "items", seedKey: "s", intervals: false },
    )!;
    const choiceText = text(
      createElement(AgreementSection, { agreement: choice, annotatorNames: ["P1", "P2"], kinds: [kindInfo("choice")], tagKey: null, slug: "s" }),
    );
    expect(choiceText).toMatch(/Perfect agreement: 1 of 2 items/);
    expect(choiceText).toMatch(/2 items with 2\+ answers · 4 pairable values/);
    expect(choiceText).not.toMatch(/slot|candidate|\d+ of \d+ [\w ]*units?\b/);

    const orders = (list: number[][]) => list.map((order, coder) => ({ coder, answer: { order }, score: null }));
    const slots = computeAgreement(
      [
        {
          kind: "enact-forward",
          tag: null,
          ratings: orders([
            [0, 1, 2],
            [0, 2, 1],
          ]),
        },
        {
          kind: "enact-forward",
          tag: null,
          ratings: orders([
            [1, 0],
            [1, 0],
          ]),
        },
      ],
      2,
      {
        encodingId: "slot-nominal",
        level: "nominal",
        ci: "items",
        seedKey: "s",
        intervals: false,
      },
    )!;
    expect(
      text(createElement(AgreementSection, { agreement: slots, annotatorNames: ["P1", "P2"], kinds: [kindInfo("enact-forward")], tagKey: null, slug: "s" })),
    ).toMatch(/3 of 5 slots/);
  });
});
