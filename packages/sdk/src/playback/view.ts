import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';

/** Where a video renders: an element id, an element, several elements, or null for nowhere. */
export type ViewTarget = string | HTMLElement | HTMLElement[] | null | undefined;

/** Resolves a view option to elements; throws INVALID_PARAMETER for an id not in the document. */
export function resolveView(view: ViewTarget, functionName: string): HTMLElement[] {
  if (view === null || view === undefined) return [];
  if (typeof view === 'string') {
    const element = document.getElementById(view);
    if (!element) throw invalidParameter(EXTRA_CODE.INVALID_ELEMENT_ID, `the element id '${view}' is not found in the document`, functionName);
    return [element];
  }
  const list = Array.isArray(view) ? view : [view];
  for (const element of list) {
    if (!(element instanceof HTMLElement)) {
      throw invalidParameter(EXTRA_CODE.ELEMENT_ID_TYPE, 'view must be an element id, an HTMLElement, an array of HTMLElement or null', functionName);
    }
  }
  return list;
}
