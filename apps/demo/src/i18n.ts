import { useCallback, useSyncExternalStore } from 'react';
import { ADMIN_EN, ADMIN_ZH } from './translations/admin';
import { DEMO_EN } from './translations/en';
import { DEMO_ZH } from './translations/zh';

/**
 * The words of the demo and the admin page in English and Chinese: one typed table (translations/en.ts and
 * translations/admin.ts give the keys; every key must be in Chinese too, the compiler checks, and i18n.test.ts
 * checks the table as built), a language picked from `?lang=`, the user's last choice, or
 * `navigator.language`. `{name}` in a message is filled in by `t(key, { name })`. No i18n library: two
 * languages and ~350 strings do not need one. i18n-literals.test.ts fails on words shown without the table.
 */
export type Lang = 'en' | 'zh';
export const LANGS: readonly (readonly [Lang, string])[] = [['en', 'English'], ['zh', '中文']];

const EN = { ...DEMO_EN, ...ADMIN_EN } as const;

export type MessageKey = keyof typeof EN;

const ZH: Record<MessageKey, string> = { ...DEMO_ZH, ...ADMIN_ZH };

/** Both languages' tables (read by the tests). */
export const TABLES: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { en: EN, zh: ZH };
const STORAGE_KEY = 'conclave-demo-lang';

const isLang = (value: unknown): value is Lang => value === 'en' || value === 'zh';

/** `?lang=` first, then the user's last choice, then the browser's language (zh-* → Chinese). */
export function initialLang(search: string, stored: string | null, browser: string): Lang {
  const asked = new URLSearchParams(search).get('lang');
  if (isLang(asked)) return asked;
  if (isLang(stored)) return stored;
  return browser.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

function storedLang(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage blocked (private mode, a sandboxed frame): the browser's language is used
  }
}

let current: Lang = typeof window === 'undefined' ? 'en' : initialLang(window.location.search, storedLang(), navigator.language);
const listeners = new Set<() => void>();

function apply(lang: Lang): void {
  if (typeof document !== 'undefined') document.documentElement.lang = localeOf(lang);
}
apply(current);

/** Switches the language everywhere (and remembers it). */
export function setLang(lang: Lang): void {
  if (lang === current) return;
  current = lang;
  apply(lang);
  try {
    window.localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Storage may be off (private mode): the choice lasts for this page only.
  }
  for (const listener of listeners) listener();
}

export function getLang(): Lang {
  return current;
}

/** A message of `lang` with its `{name}` parts filled in. */
export function translate(lang: Lang, key: MessageKey, vars?: Readonly<Record<string, string | number>>): string {
  const text = TABLES[lang][key];
  return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;
}

export type Translate = (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => string;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The BCP 47 tag of a language (for `<html lang>` and dates); a declaration, so `apply` may run before this line. */
export function localeOf(lang: Lang): string {
  return lang === 'zh' ? 'zh-CN' : 'en';
}

/** The current language; the component re-renders when it changes. */
export function useLang(): Lang {
  return useSyncExternalStore(subscribe, getLang);
}

/** `t(key, vars)` in the current language (the same function until it changes); the component re-renders when it changes. */
export function useT(): Translate {
  const lang = useLang();
  return useCallback<Translate>((key, vars) => translate(lang, key, vars), [lang]);
}
