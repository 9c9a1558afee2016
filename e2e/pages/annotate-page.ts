import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The annotator's item page (/s/<slug>/work), as a page object (Playwright's POM guide): locators
 * in the constructor, methods named for what the annotator does. Steps and candidates are
 * 0-based here, as in answers; the page shows them 1-based (steps) and lettered (candidates).
 */
export class AnnotatePage {
  readonly task: Locator;
  readonly progress: Locator;
  readonly syncStatus: Locator;
  readonly submitButton: Locator;
  readonly feedback: Locator;
  readonly lightbox: Locator;

  constructor(readonly page: Page) {
    this.task = page.getByTestId("task");
    this.progress = page.getByTestId("progress");
    this.syncStatus = page.getByTestId("sync-status");
    this.submitButton = page.getByRole("button", { name: "Submit", exact: true });
    this.feedback = page.getByTestId("practice-feedback");
    this.lightbox = page.getByRole("dialog");
  }

  async open(slug: string) {
    await this.page.goto(`/s/${slug}/work`);
    await this.waitForItem();
  }

  async waitForItem() {
    await expect(this.task.locator("[data-slot]").first()).toBeVisible({ timeout: 15_000 });
  }

  slot(step: number): Locator {
    return this.task.locator(`[data-slot="${step + 1}"]`);
  }

  candidate(index: number): Locator {
    return this.task.locator(`[data-candidate="${index}"]`);
  }

  async kind(): Promise<string> {
    return (await this.task.getAttribute("data-kind")) ?? "";
  }

  async assignmentId(): Promise<string> {
    return (await this.task.getAttribute("data-assignment")) ?? "";
  }

  async stepCount(): Promise<number> {
    return this.task.locator("[data-slot]").count();
  }

  /** Drag a library candidate into a step (react-dnd's HTML5 backend). */
  async dragToStep(candidate: number, step: number) {
    await this.candidate(candidate).dragTo(this.slot(step));
    await expect(this.slot(step)).toHaveAttribute("data-filled", letter(candidate));
  }

  /** Drag the candidate of one step onto another (a swap when that one is filled). */
  async dragStepToStep(from: number, to: number) {
    await this.slot(from).dragTo(this.slot(to));
  }

  /** The keyboard path: focus a candidate and type the step's number. */
  async placeByKeyboard(candidate: number, step: number) {
    // a key pressed before the page has hydrated goes nowhere: press again until it lands (placing
    // a candidate in the step it already fills changes nothing)
    await expect(async () => {
      await this.candidate(candidate).focus();
      await this.page.keyboard.press(step === 9 ? "0" : String(step + 1));
      await expect(this.slot(step)).toHaveAttribute("data-filled", letter(candidate), { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
  }

  async clearStep(step: number) {
    await this.slot(step).click();
    await expect(this.slot(step)).not.toHaveAttribute("data-filled");
  }

  /** Put the whole order in: order[step] = candidate. */
  async fillOrder(order: number[], how: "drag" | "keyboard") {
    for (const [step, candidate] of order.entries()) {
      if (how === "drag") await this.dragToStep(candidate, step);
      else await this.placeByKeyboard(candidate, step);
    }
  }

  async zoomCandidate(candidate: number) {
    await this.candidate(candidate).click();
    await expect(this.lightbox).toBeVisible();
  }

  async closeZoom() {
    await this.page.keyboard.press("Escape");
    await expect(this.lightbox).toBeHidden();
  }

  /** Likert 1..5, or a percentage on the slider. */
  async setConfidence(value: number) {
    const likert = this.page.getByRole("radio", { name: new RegExp(`^${value}:`) });
    if ((await this.page.getByRole("radiogroup", { name: /Confidence/ }).count()) > 0) {
      await likert.click();
      await expect(likert).toHaveAttribute("aria-checked", "true");
      return;
    }
    const slider = this.page.getByLabel("Confidence in percent");
    const box = await slider.boundingBox();
    if (!box) throw new Error("the confidence slider is not visible");
    await this.page.mouse.click(box.x + (box.width * value) / 100, box.y + box.height / 2);
    await expect(this.page.getByTestId("confidence-value")).not.toHaveText("not set");
  }

  /** Submit and wait for what comes next (the next item, practice feedback, or another page). */
  async submit() {
    const before = await this.assignmentId();
    await expect(this.submitButton).toBeEnabled();
    await this.submitButton.click();
    await expect
      .poll(
        async () =>
          (await this.feedback.count()) > 0 || !this.page.url().includes("/work") || ((await this.task.count()) > 0 && (await this.assignmentId()) !== before),
        { timeout: 15_000 },
      )
      .toBe(true);
  }

  async continueAfterFeedback() {
    await this.feedback.getByRole("button", { name: "Continue" }).click();
  }

  async waitUntilSynced() {
    await expect(this.syncStatus).toHaveAttribute("data-pending", "0", { timeout: 30_000 });
    await expect(this.syncStatus).toHaveAttribute("data-offline", "false");
  }
}

export function letter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** The writer id of the page's tab (lib/client/tab-writer.ts): an API call made for the page writes as that tab. */
export async function tabWriterOf(page: Page): Promise<string> {
  const writer = await page.evaluate(() => window.sessionStorage.getItem("yardstick:writer:v1"));
  if (!writer) throw new Error("the page holds no writer id: it has not shown an item yet");
  return writer;
}
