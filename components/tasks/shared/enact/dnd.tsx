"use client";

import { createContext, useContext, useState } from "react";
import { DndProvider } from "react-dnd";
import { HTML5Backend } from "react-dnd-html5-backend";
import { TouchBackend } from "react-dnd-touch-backend";

type Pointer = "drag" | "touch";
const PointerContext = createContext<Pointer>("drag");

function coarsePointer(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches;
}

/**
 * react-dnd with the backend that fits the device: HTML5 drag and drop for a mouse or trackpad,
 * the touch backend (mouse events enabled too, for hybrid devices) when the primary pointer is
 * coarse. The choice is made once, on the client.
 */
export function TaskDndProvider({ children }: { children: React.ReactNode }) {
  const [pointer] = useState<Pointer>(() => (coarsePointer() ? "touch" : "drag"));
  return (
    <PointerContext.Provider value={pointer}>
      {pointer === "touch" ? (
        <DndProvider backend={TouchBackend} options={{ enableMouseEvents: true, delayTouchStart: 120, ignoreContextMenu: true }}>
          {children}
        </DndProvider>
      ) : (
        <DndProvider backend={HTML5Backend}>{children}</DndProvider>
      )}
    </PointerContext.Provider>
  );
}

/** "touch" when the touch backend is in use (it draws no drag image: render DragPreviewLayer). */
export function usePointerKind(): Pointer {
  return useContext(PointerContext);
}
