import { LANGS, localeOf, setLang, useLang, useT } from './i18n';

/** The language menu (pre-join and settings): English or Chinese; the choice is remembered. */
export function LanguagePicker({ testId = 'pick-language' }: { testId?: string }) {
  const lang = useLang();
  const t = useT();
  return (
    <label className="picker language-picker">
      <span>{t('settings.language')}</span>
      <select data-testid={testId} value={lang} onChange={(event) => setLang(event.target.value === 'zh' ? 'zh' : 'en')}>
        {LANGS.map(([value, name]) => <option key={value} value={value} lang={localeOf(value)}>{name}</option>)}
      </select>
    </label>
  );
}
