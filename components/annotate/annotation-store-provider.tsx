"use client";

import { createContext, useContext, useState } from "react";
import { useStore } from "zustand";
import { createAnnotationStore, type AnnotationInit, type AnnotationState, type AnnotationStore } from "@/lib/client/annotation-store";

/**
 * One annotation store per item (zustand's Next.js guide: no global stores). Key the provider by
 * the assignment id so that the next item gets a fresh store.
 */
const AnnotationStoreContext = createContext<AnnotationStore | null>(null);

export function AnnotationStoreProvider({ init, store: given, children }: { init?: AnnotationInit; store?: AnnotationStore; children: React.ReactNode }) {
  // created once per provider (useState's initialiser runs once, like the guide's useRef)
  const [store] = useState<AnnotationStore>(() => {
    if (given) return given;
    if (!init) throw new Error("AnnotationStoreProvider needs init or store");
    return createAnnotationStore(init);
  });
  return <AnnotationStoreContext.Provider value={store}>{children}</AnnotationStoreContext.Provider>;
}

/** The store itself, for actions and effects; throws outside AnnotationStoreProvider. */
export function useAnnotationStoreApi(): AnnotationStore {
  const store = useContext(AnnotationStoreContext);
  if (!store) throw new Error("useAnnotationStore must be used inside <AnnotationStoreProvider>");
  return store;
}

/** Select from the item's store. Select primitives, or wrap array/object selectors in useShallow. */
export function useAnnotationStore<T>(selector: (state: AnnotationState) => T): T {
  return useStore(useAnnotationStoreApi(), selector);
}
