/**
 * The circles of a directed graph (an import graph between files or folders): its strongly connected components of
 * more than one node, found with Tarjan's algorithm, each sorted; with `selfLoops`, a node importing itself too.
 * The layer tests of the server, the SDK and the demo each build their graph and ask this one walk for its circles.
 */
export function graphCircles(graph: ReadonlyMap<string, Iterable<string>>, options: { selfLoops?: boolean; order?: 'sorted' | 'insertion' } = {}): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    const arrows = [...(graph.get(node) ?? [])];
    for (const next of arrows) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (options.selfLoops === true && arrows.includes(node))) found.push(component.sort());
  };
  const nodes = options.order === 'sorted' ? [...graph.keys()].sort() : [...graph.keys()];
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}
