import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The annotator's item page for the GridWM kinds, as a page object: choose a candidate, edit the
 * scene form, judge a storyboard, give confidence and submit, each by mouse or by keyboard.
 */
export class GridwmPage {
  readonly task: Locator;
  readonly submitButton: Locator;
  readonly feedback: Locator;

  constructor(readonly page: Page) {
    this.task = page.getByTestId("task");
    this.submitButton = page.getByRole("button", { name: "Submit", exact: true });
    this.feedback = page.getByTestId("practice-feedback");
  }

  async waitForItem(previous?: string) {
    await expect(this.task).toBeVisible({ timeout: 15_000 });
    if (previous) await expect(this.task).not.toHaveAttribute("data-assignment", previous, { timeout: 15_000 });
    await expect(this.task.locator("[data-choice], [data-cell], [data-verdict]").first()).toBeVisible({ timeout: 15_000 });
  }

  async kind(): Promise<string> {
    return (await this.task.getAttribute("data-kind")) ?? "";
  }

  async assignmentId(): Promise<string> {
    return (await this.task.getAttribute("data-assignment")) ?? "";
  }

  choice(letter: string): Locator {
    return this.task.locator(`[data-choice="${letter}"]`);
  }

  cell(x: number, y: number): Locator {
    return this.task.locator(`[data-cell="${x},${y}"]`);
  }

  verdict(verdict: "Success" | "Fail"): Locator {
    return this.task.locator(`[data-verdict="${verdict}"]`);
  }

  /** Press a key with the focus on the page body (not in a form field). */
  async pressOnPage(key: string) {
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await this.page.keyboard.press(key);
  }

  /** Activate a control by keyboard: focus it and press Enter. */
  async pressOn(locator: Locator, key = "Enter") {
    await locator.focus();
    await this.page.keyboard.press(key);
  }

  async confidence(value: number, via: "mouse" | "keyboard") {
    const radio = this.page.getByRole("radio", { name: new RegExp(`^${value}:`) });
    if (via === "mouse") await radio.click();
    else await this.pressOn(radio);
    await expect(radio).toHaveAttribute("aria-checked", "true");
  }

  async submit(via: "mouse" | "keyboard") {
    await expect(this.submitButton).toBeEnabled();
    if (via === "mouse") await this.submitButton.click();
    else await this.pressOn(this.submitButton);
  }
}
