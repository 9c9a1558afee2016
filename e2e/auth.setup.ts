import { test as setup, expect } from "@playwright/test";
import { e2eUsers, storageStatePath, type E2eUserName } from "./users";

// One saved login per role (Playwright's authentication guide), reused by the specs.
for (const name of Object.keys(e2eUsers) as E2eUserName[]) {
  setup(`sign in as ${name}`, async ({ page }) => {
    const user = e2eUsers[name];
    await page.goto("/signin");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).not.toHaveURL(/\/signin/);
    await page.context().storageState({ path: storageStatePath(name) });
  });
}
