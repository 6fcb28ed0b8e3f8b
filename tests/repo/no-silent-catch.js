// ESLint rule `conclave/no-silent-catch` (docs/architecture.md "Failures"): a `catch` clause, or a function handed
// to a promise's `.catch(…)` or as `.then(…)`'s second argument, must do something with the failure — call
// something (a logger, a metric, an event, a fallback), rethrow — or say in a comment at the catch why dropping
// it is right. Comments count inside the handler, on the line of the `catch` keyword, on the line just above it,
// and trailing on the line where the handler ends.

/** @typedef {import('eslint').Rule.RuleModule} RuleModule */
/** @typedef {import('estree').Node} Node */

const FUNCTIONS = new Set(['FunctionExpression', 'ArrowFunctionExpression', 'FunctionDeclaration']);

/**
 * True when `node` (not looking into functions declared inside it, which run later if at all) calls something or
 * throws.
 * @param {Node} node
 * @param {import('eslint').SourceCode['visitorKeys']} keys
 * @returns {boolean}
 */
function acts(node, keys) {
  if (node.type === 'CallExpression' || node.type === 'NewExpression' || node.type === 'ThrowStatement'
    || node.type === 'TaggedTemplateExpression') return true;
  for (const key of keys[node.type] ?? []) {
    /** @type {unknown} */
    const child = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (node))[key];
    for (const item of Array.isArray(child) ? child : [child]) {
      if (item && typeof item === 'object' && 'type' in item && !FUNCTIONS.has(/** @type {Node} */ (item).type)
        && acts(/** @type {Node} */ (item), keys)) return true;
    }
  }
  return false;
}

/** @type {RuleModule} */
const noSilentCatch = {
  meta: {
    type: 'problem',
    docs: { description: 'A caught failure is logged, counted, reported, rethrown, or a comment says why it is dropped' },
    schema: [],
    messages: {
      silent: 'This catch drops the failure silently: log it with a reason, count it, report it, rethrow it, '
        + 'or say in a comment at the catch why dropping it is right (docs/architecture.md "Failures").',
    },
  },
  create(context) {
    const source = context.sourceCode;
    const keys = source.visitorKeys;

    /**
     * Reports `handler` unless it acts or a comment explains it.
     * @param {Node} handler the catch clause or the handler function
     * @param {Node} body what runs on the failure
     * @param {number} catchLine the line of the `catch` (or `then`) keyword
     */
    function check(handler, body, catchLine) {
      if (!FUNCTIONS.has(body.type) && acts(body, keys)) return;
      const endLine = /** @type {import('estree').SourceLocation} */ (handler.loc).end.line;
      const explained = source.getCommentsInside(handler).length > 0
        || source.getAllComments().some((c) => {
          const loc = /** @type {import('estree').SourceLocation} */ (c.loc);
          return loc.end.line === catchLine - 1 || loc.start.line === catchLine || loc.start.line === endLine;
        });
      if (!explained) context.report({ node: handler, messageId: 'silent' });
    }

    return {
      CatchClause(node) {
        check(node, node.body, /** @type {import('estree').SourceLocation} */ (node.loc).start.line);
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const name = callee.property.name;
        const handler = name === 'catch' ? node.arguments[0] : name === 'then' ? node.arguments[1] : undefined;
        if (!handler || (handler.type !== 'ArrowFunctionExpression' && handler.type !== 'FunctionExpression')) return;
        check(handler, handler.body, /** @type {import('estree').SourceLocation} */ (callee.property.loc).start.line);
      },
    };
  },
};

/** The local plugin: `conclave/no-silent-catch`. */
export default { rules: { 'no-silent-catch': noSilentCatch } };
