import type { IModule } from 'dependency-cruiser';
import { graphCircles } from '../../../../tests/kit/graph-circles.js';

/** The folder of src/ a production module belongs to (undefined: a root file, a test, or outside src/). */
function folderOf(path: string): string | undefined {
  if (path.endsWith('.test.ts')) return undefined;
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

/** The folder graph: an arrow from one folder of src/ to another when a production file of the one imports the other's. */
export function folderGraph(modules: readonly IModule[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (from === undefined) continue;
    const arrows = graph.get(from) ?? new Set<string>();
    graph.set(from, arrows);
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (to !== undefined && to !== from) arrows.add(to);
    }
  }
  return graph;
}

/**
 * The import circles among the folders of src/ (docs/architecture.md "Layers"): one circle per group of folders
 * that reach each other (a strongly connected component, Tarjan's), printed as a shortest "a → b → a" from its
 * first folder in alphabetical order, with the whole group when it is larger. Empty when the folders form layers.
 */
export function folderCircles(modules: readonly IModule[]): string[] {
  const graph = folderGraph(modules);
  const groups = graphCircles(graph, { order: 'sorted' });
  return groups.map((group) => {
    const circle = circleThrough(graph, new Set(group), group[0]);
    return circle.split(' → ').length - 1 === group.length ? circle : `${circle} (one circle of ${group.length} folders that reach each other: ${group.join(', ')})`;
  }).sort();
}

/** A shortest circle from `start` back to it inside `group` (breadth first, arrows in alphabetical order). */
function circleThrough(graph: Map<string, Set<string>>, group: Set<string>, start: string): string {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift()!;
    for (const next of [...(graph.get(folder) ?? [])].sort()) {
      if (!group.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = folder; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start].join(' → ');
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, folder);
        queue.push(next);
      }
    }
  }
  return `${[...group].join(', ')} (no circle found through ${start})`;
}
