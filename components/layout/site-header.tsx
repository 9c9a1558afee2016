import Link from "next/link";
import type { CurrentUser } from "@/lib/auth/session";
import { navByRole, homePathFor } from "@/config/nav";
import { SignOutButton } from "@/components/layout/sign-out-button";
import { NavLinks } from "@/components/layout/nav-links";

const roleLabel = { ADMIN: "Admin", RESEARCHER: "Researcher", ANNOTATOR: "Annotator" } as const;

export function SiteHeader({ user }: { user: CurrentUser }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      {/* one row at every width (the annotator pages' sticky panels sit right under its 57 px); on a phone the wordmark and role badge give way and the links scroll sideways */}
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-3 sm:gap-6 sm:px-6">
        <Link href={homePathFor(user.role)} aria-label="Yardstick" className="flex shrink-0 items-center gap-2 font-semibold tracking-tight text-slate-900">
          <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-brand-600 text-sm font-bold text-white">
            Y
          </span>
          <span className="hidden sm:inline">Yardstick</span>
        </Link>
        <NavLinks items={navByRole[user.role]} />
        <div className="ml-auto flex shrink-0 items-center gap-3 text-[13px] sm:text-sm">
          <span className="hidden text-slate-600 sm:inline">{user.name}</span>
          <span className="hidden rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600 sm:inline">{roleLabel[user.role]}</span>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
