"use client";

import { useState } from "react";
import { GRIDWM_COLORS, type GridwmColor } from "@/lib/tasks/shared/gridwm/common";
import {
  CARRY_TYPES,
  FRONT_TYPES,
  SCENE_OBJECT_TYPES,
  dirOfCompass,
  frontCellPos,
  initialSceneDraft,
  isSceneDraft,
  objectIndexAt,
  sceneAnswerOf,
  type DoorState,
  type Pos,
  type SceneDraft,
  type SceneObjectType,
} from "@/lib/tasks/shared/gridwm/scene-form";
import { useEditScene } from "@/components/tasks/gridwm-scene-json/actions";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import type { SceneView } from "@/components/tasks/shared/gridwm/views";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { TaskPanel, ZoomableImage } from "@/components/tasks/shared/panel";
import { useTaskKeys, viaOf } from "@/components/tasks/shared/task-keys";
import type { TaskUiProps } from "@/components/tasks/shared/types";

/**
 * GridWM-Judge Task B (`gridwm-scene-json`): a form that can only produce the canonical scene.
 * The frame (the whole grid with its axes, or the agent's own view; the instructions say which
 * and how positions are counted) beside a clickable grid of the item's size (`gridSize`; cells
 * shrink for large grids): click the agent's cell, turn it with the arrow buttons or
 * the arrow keys, pick what it carries; the front cell follows from position and direction (its
 * type and state are picked); objects are added by clicking cells with the chosen type, colour and
 * state, and edited or removed in the list. Every edit is one `scene_edited` event; the JSON is
 * shown live.
 */

const COMPASS = [
  { name: "north", arrow: "↑", key: "ArrowUp" },
  { name: "west", arrow: "←", key: "ArrowLeft" },
  { name: "east", arrow: "→", key: "ArrowRight" },
  { name: "south", arrow: "↓", key: "ArrowDown" },
] as const;
const ROTATION: Record<string, number> = { north: 0, east: 90, south: 180, west: 270 };
const DOOR_STATES: Array<{ value: DoorState; label: string }> = [
  { value: 0, label: "open (0)" },
  { value: 1, label: "closed (1)" },
  { value: 2, label: "locked (2)" },
];
const SWATCH: Record<GridwmColor, string> = { red: "#ff0000", green: "#00c000", blue: "#0050ff", purple: "#7030a0", yellow: "#e0c000", grey: "#808080" };
const TYPE_MARK: Record<string, string> = { door: "D", key: "K", ball: "●", box: "▣", goal: "G", lava: "~" };

const selectClass = "h-7 rounded border border-slate-300 bg-white px-1 text-xs disabled:bg-slate-50 disabled:text-slate-400";

export default function GridwmSceneJsonTask({ view }: TaskUiProps) {
  const item = view as SceneView;
  const stored = useAnnotationStore((s) => s.answer);
  const draft: SceneDraft = isSceneDraft(stored) ? stored : initialSceneDraft(item);
  const editScene = useEditScene();
  const zoom = useAnnotationStore((s) => s.zoom);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const [tool, setTool] = useState<"agent" | "object">("agent");
  const [palette, setPalette] = useState<{ type: SceneObjectType; color: GridwmColor; state: DoorState }>({ type: "key", color: "yellow", state: 0 });

  useTaskKeys((key) => {
    const compass = COMPASS.find((c) => c.key === key);
    if (!compass) return false;
    editScene("set", "agent.dir", dirOfCompass(draft, compass.name), "keyboard");
    return true;
  });

  const answer = sceneAnswerOf(draft);
  const front = frontCellPos(draft);
  const [width, height] = draft.grid.size;
  const compassOfDir = draft.grid.directions[draft.agent.dir] ?? "north";
  const fullGrid = item.frame === "full-grid";
  const frameName = fullGrid ? "The grid" : "The agent's view";
  /** cell side in rem: 2.4 up to 7 cells across, smaller for larger grids, never under 1.25 */
  const cell = Math.max(1.25, Math.min(2.4, 19 / width));

  const clickCell = (pos: Pos, via: "click" | "keyboard") => {
    if (tool === "agent") {
      editScene("set", "agent.pos", pos, via);
      return;
    }
    const index = objectIndexAt(draft, pos);
    if (index >= 0) editScene("remove", `objects.${index}`, null, via);
    else editScene("add", "objects", { type: palette.type, pos, color: palette.color, state: palette.type === "door" ? palette.state : 0 }, via);
  };

  return (
    // below lg (phones): one column, the page scrolls; a grid wider than the screen scrolls in its panel
    <div className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(200px,260px)_auto_minmax(280px,1fr)] xl:grid-cols-[minmax(240px,300px)_auto_minmax(320px,1fr)] xl:gap-3">
      <TaskPanel title={frameName} label={frameName} bodyClassName="flex flex-col gap-2">
        <ZoomableImage
          src={item.image}
          alt={frameName}
          onZoom={() => zoom(item.image, "observation", 0)}
          className={`${fullGrid ? "" : "aspect-square max-w-[60vw] lg:max-w-none"} mx-auto w-full shrink-0 [image-rendering:pixelated]`}
        />
        {item.mission ? (
          <p className="text-xs leading-snug text-slate-600">
            <span className="font-semibold text-slate-700">Mission: </span>
            {item.mission}
          </p>
        ) : null}
        <div className="space-y-1 text-[11px] leading-snug text-slate-500" data-testid="scene-frame-help">
          {fullGrid ? (
            <p>
              The picture is the whole {width}x{height} grid seen from above, its axes labelled: x across the top (0 at the left), y down the left side (0 at
              the top). A cell&apos;s position is [x, y], read off the axes, the same numbers as the grid beside it. The red triangle is the agent, pointing
              where it faces (north is up). The lighter cells are what the agent sees (the others are darkened): list the objects in them. What it carries is
              written under the grid.
            </p>
          ) : (
            <p>
              The picture is the agent&apos;s own view (what a model is given): the agent is at the bottom centre, facing up, whatever its direction in the
              world. Positions are world cells of the {width}x{height} grid ([0, 0] top left, x to the right, y down). This view shows what the agent carries
              (drawn in its cell) and the cell in front of it; it does not show where the agent stands in the world, which way it faces, or objects out of its
              sight: give your best guess for those.
            </p>
          )}
          <p>
            Directions here: {draft.grid.directions.map((d, i) => `${i} ${d}`).join(", ")}. Walls and floor are not objects. Doors: open (only a thin edge
            drawn), closed (an outline with a handle), locked (filled, with a keyhole bar).
          </p>
        </div>
      </TaskPanel>

      <TaskPanel title="The scene" label="Scene grid" bodyClassName="flex flex-col gap-2">
        <div role="radiogroup" aria-label="What a click on a cell does" className="flex items-center gap-1 text-xs">
          <ToolButton active={tool === "agent"} onClick={() => setTool("agent")}>
            Place agent
          </ToolButton>
          <ToolButton active={tool === "object"} onClick={() => setTool("object")}>
            Add / remove object
          </ToolButton>
        </div>
        {tool === "object" ? (
          <div className="flex flex-wrap items-center gap-1 text-xs" aria-label="New object">
            <select
              aria-label="New object's type"
              className={selectClass}
              value={palette.type}
              onChange={(e) => setPalette({ ...palette, type: e.target.value as SceneObjectType })}
            >
              {SCENE_OBJECT_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
            <select
              aria-label="New object's colour"
              className={selectClass}
              value={palette.color}
              onChange={(e) => setPalette({ ...palette, color: e.target.value as GridwmColor })}
            >
              {GRIDWM_COLORS.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
            <select
              aria-label="New object's state"
              className={selectClass}
              value={palette.state}
              disabled={palette.type !== "door"}
              onChange={(e) => setPalette({ ...palette, state: Number(e.target.value) as DoorState })}
            >
              {(palette.type === "door" ? DOOR_STATES : [{ value: 0, label: "state 0" }]).map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="text-[11px] text-slate-500">Click the agent&apos;s cell.</p>
        )}
        <div className="max-w-full self-start overflow-auto">
          <div
            className="grid w-max gap-px rounded bg-slate-300 p-px"
            style={{ gridTemplateColumns: `1.1rem repeat(${width}, ${cell}rem)` }}
            data-testid="scene-grid"
            data-grid={`${width}x${height}`}
          >
            <span className="bg-white text-center text-[9px] leading-tight text-slate-400" title="x across, y down">
              y\x
            </span>
            {Array.from({ length: width }, (_, x) => (
              <span key={x} className="bg-white text-center text-[10px] text-slate-400">
                {x}
              </span>
            ))}
            {Array.from({ length: height }, (_, y) => (
              <Row key={y} y={y} width={width} cell={cell} draft={draft} front={front} compass={compassOfDir} locked={locked} onCell={clickCell} />
            ))}
          </div>
        </div>
        <div className="flex items-center gap-2 text-xs">
          <span className="w-16 font-medium text-slate-700">Direction</span>
          <div className="grid grid-cols-3 grid-rows-2 gap-0.5" role="radiogroup" aria-label="The agent's direction (arrow keys)">
            {COMPASS.map((c) => {
              const dir = dirOfCompass(draft, c.name);
              const active = draft.agent.dir === dir;
              return (
                <button
                  key={c.name}
                  type="button"
                  role="radio"
                  aria-checked={active}
                  aria-label={`Facing ${c.name} (dir ${dir})`}
                  title={`${c.name}: dir ${dir}`}
                  disabled={locked}
                  onClick={(event) => editScene("set", "agent.dir", dir, viaOf(event))}
                  className={`h-10 w-11 rounded border text-sm leading-none lg:h-6 lg:w-8 ${active ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white hover:border-brand-400"} ${
                    c.name === "north"
                      ? "col-start-2"
                      : c.name === "west"
                        ? "col-start-1 row-start-2"
                        : c.name === "east"
                          ? "col-start-3 row-start-2"
                          : "col-start-2 row-start-2"
                  }`}
                >
                  {c.arrow}
                </button>
              );
            })}
          </div>
          <span className="text-slate-500">
            {compassOfDir} = dir {draft.agent.dir}
          </span>
        </div>
        <div className="flex items-center gap-2 text-xs">
          <span className="w-16 font-medium text-slate-700">Carrying</span>
          <select
            aria-label="What the agent carries"
            className={selectClass}
            disabled={locked}
            value={draft.agent.carrying?.type ?? ""}
            onChange={(e) =>
              editScene(
                "set",
                "agent.carrying",
                e.target.value === "" ? null : { type: e.target.value, color: draft.agent.carrying?.color ?? "yellow" },
                "click",
              )
            }
          >
            <option value="">nothing</option>
            {CARRY_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <select
            aria-label="Colour of what the agent carries"
            className={selectClass}
            disabled={locked || !draft.agent.carrying}
            value={draft.agent.carrying?.color ?? ""}
            onChange={(e) => draft.agent.carrying && editScene("set", "agent.carrying", { type: draft.agent.carrying.type, color: e.target.value }, "click")}
          >
            {!draft.agent.carrying ? <option value="">–</option> : null}
            {GRIDWM_COLORS.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
      </TaskPanel>

      <TaskPanel title="Front cell, objects and the JSON" label="Front cell and objects" bodyClassName="flex flex-col gap-2 text-xs">
        <div className="flex flex-wrap items-center gap-1.5 rounded-md border border-amber-200 bg-amber-50/60 px-2 py-1.5" aria-label="Front cell">
          <span className="font-medium text-slate-700">Front cell</span>
          <span className="font-mono text-slate-600" data-testid="front-cell-pos">
            {front ? `[${front[0]}, ${front[1]}]` : "place the agent"}
          </span>
          <select
            aria-label="Front cell's type"
            className={selectClass}
            disabled={locked}
            value={draft.front_cell.type}
            onChange={(e) => editScene("set", "front_cell.type", e.target.value, "click")}
          >
            {FRONT_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <select
            aria-label="Front cell's state"
            className={selectClass}
            disabled={locked || draft.front_cell.type !== "door"}
            value={draft.front_cell.state}
            onChange={(e) => editScene("set", "front_cell.state", Number(e.target.value), "click")}
          >
            {(draft.front_cell.type === "door" ? DOOR_STATES : [{ value: 0, label: "state 0" }]).map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <p className="mb-1 font-medium text-slate-700">
            Objects <span className="font-normal text-slate-500">({draft.objects.length}; add them by clicking cells with “Add / remove object”)</span>
          </p>
          <ul className="flex flex-col gap-1" aria-label="Objects" data-testid="scene-objects">
            {draft.objects.map((object, i) => (
              <li key={`${object.pos[0]},${object.pos[1]}`} className="flex items-center gap-1">
                <span className="w-12 font-mono text-slate-600">
                  [{object.pos[0]}, {object.pos[1]}]
                </span>
                <select
                  aria-label={`Object at ${object.pos.join(",")}: type`}
                  className={selectClass}
                  disabled={locked}
                  value={object.type}
                  onChange={(e) => editScene("set", `objects.${i}.type`, e.target.value, "click")}
                >
                  {SCENE_OBJECT_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
                <select
                  aria-label={`Object at ${object.pos.join(",")}: colour`}
                  className={selectClass}
                  disabled={locked}
                  value={object.color}
                  onChange={(e) => editScene("set", `objects.${i}.color`, e.target.value, "click")}
                >
                  {GRIDWM_COLORS.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </select>
                <select
                  aria-label={`Object at ${object.pos.join(",")}: state`}
                  className={selectClass}
                  disabled={locked || object.type !== "door"}
                  value={object.state}
                  onChange={(e) => editScene("set", `objects.${i}.state`, Number(e.target.value), "click")}
                >
                  {(object.type === "door" ? DOOR_STATES : [{ value: 0, label: "state 0" }]).map((s) => (
                    <option key={s.value} value={s.value}>
                      {s.label}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  aria-label={`Remove the object at ${object.pos.join(",")}`}
                  disabled={locked}
                  onClick={(event) => editScene("remove", `objects.${i}`, null, viaOf(event))}
                  className="grid h-6 w-6 place-items-center rounded text-slate-500 hover:bg-red-50 hover:text-red-700"
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
        </div>
        <div className="flex min-h-0 flex-1 flex-col">
          <p className="mb-1 font-medium text-slate-700">
            Your answer (canonical JSON){" "}
            {answer ? <span className="font-normal text-emerald-700">✓ valid</span> : <span className="font-normal text-amber-700">incomplete</span>}
          </p>
          <pre className="min-h-16 flex-1 overflow-auto rounded-md bg-slate-900 p-2 font-mono text-[11px] leading-snug text-slate-100" data-testid="scene-json">
            {answer ? formatScene(answer) : "// place the agent first"}
          </pre>
        </div>
      </TaskPanel>
      <Lightbox describe={() => frameName} />
    </div>
  );
}

/** The scene with one object a line: readable and still JSON. */
function formatScene(answer: NonNullable<ReturnType<typeof sceneAnswerOf>>): string {
  const objects = answer.objects.map((o) => `    ${JSON.stringify(o)}`).join(",\n");
  return `{\n  "agent": ${JSON.stringify(answer.agent)},\n  "front_cell": ${JSON.stringify(answer.front_cell)},\n  "objects": [${objects ? `\n${objects}\n  ` : ""}]\n}`;
}

function ToolButton({ active, onClick, children }: { active: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={active}
      onClick={onClick}
      className={`rounded-md border px-2 py-1 font-medium max-lg:min-h-10 ${active ? "border-brand-600 bg-brand-50 text-brand-800" : "border-slate-300 bg-white text-slate-700 hover:border-brand-400"}`}
    >
      {children}
    </button>
  );
}

function Row({
  y,
  width,
  cell,
  draft,
  front,
  compass,
  locked,
  onCell,
}: {
  y: number;
  width: number;
  cell: number;
  draft: SceneDraft;
  front: Pos | null;
  compass: string;
  locked: boolean;
  onCell: (pos: Pos, via: "click" | "keyboard") => void;
}) {
  return (
    <>
      <span className="grid place-items-center bg-white text-[10px] text-slate-400">{y}</span>
      {Array.from({ length: width }, (_, x) => {
        const object = draft.objects[objectIndexAt(draft, [x, y])];
        const agent = draft.agent.pos?.[0] === x && draft.agent.pos?.[1] === y;
        const isFront = front?.[0] === x && front?.[1] === y;
        const name = [`Cell ${x},${y}`, agent ? "agent" : null, object ? `${object.color} ${object.type}` : null, isFront ? "front cell" : null]
          .filter(Boolean)
          .join(", ");
        return (
          <button
            key={x}
            type="button"
            aria-label={name}
            title={name}
            data-cell={`${x},${y}`}
            disabled={locked}
            onClick={(event) => onCell([x, y], event.detail === 0 ? "keyboard" : "click")}
            style={{ width: `${cell}rem`, height: `${cell}rem` }}
            className={`relative grid place-items-center bg-white text-sm font-bold outline-none hover:bg-brand-50 focus-visible:z-10 focus-visible:ring-2 focus-visible:ring-brand-500 disabled:cursor-default ${
              isFront ? "ring-2 ring-inset ring-amber-400" : ""
            }`}
          >
            {object ? (
              <span
                className="grid place-items-center rounded-sm text-xs text-white"
                style={{ width: `${cell * 0.72}rem`, height: `${cell * 0.72}rem`, background: object.type === "lava" ? "#ff8000" : SWATCH[object.color] }}
              >
                {TYPE_MARK[object.type]}
                {object.type === "door" ? <span className="text-[8px]">{["o", "c", "l"][object.state]}</span> : null}
              </span>
            ) : null}
            {agent ? (
              <span
                aria-hidden
                className="absolute inset-0 grid place-items-center text-lg text-red-600"
                style={{ transform: `rotate(${ROTATION[compass] ?? 0}deg)` }}
              >
                ▲
              </span>
            ) : null}
          </button>
        );
      })}
    </>
  );
}
