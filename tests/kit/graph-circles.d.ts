/**
 * The circles of a directed graph (an import graph between files or folders): its strongly connected components of
 * more than one node, found with Tarjan's algorithm, each sorted; with `selfLoops`, a node importing itself too.
 * The layer tests of the server, the SDK and the demo each build their graph and ask this one walk for its circles.
 */
export declare function graphCircles(graph: ReadonlyMap<string, Iterable<string>>, options?: {
    selfLoops?: boolean;
    order?: 'sorted' | 'insertion';
}): string[][];
//# sourceMappingURL=graph-circles.d.ts.map