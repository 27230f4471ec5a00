import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { msg } from '@lingui/core/macro';
import { lazy, Suspense, useRef } from 'react';
import { css } from 'styled-system/css';
import { select } from 'styled-system/recipes';
import { languagesQueryOptions } from '../api/account';
import { LiveRegion, useAnnouncement } from '../lib/focus-after-swap';
import { activateLocale, FALLBACK_LANGUAGES, languageName } from '../lib/i18n';
import { useChangeLanguage } from '../lib/session-context';
import { GlobeIcon } from './ui/icons';
import { SelectTriggerPlaceholder } from './ui/select-trigger-placeholder';

// The select (Ark UI / zag select machine, floating-ui: ~20 KB brotli) is not needed for the first paint of a page
// with the picker in its header (e.g. /login): it loads right after it, and until then a same-sized copy of the
// trigger shows the active language (not yet operable). Screens that use SimpleSelect themselves import it statically.
const SimpleSelect = lazy(() => import('./ui/simple-select').then((module) => ({ default: module.SimpleSelect })));

/** What the picker shows while its select loads: the trigger's look, inert, with the active language. */
function PickerPlaceholder({ size, locale }: { size: 'sm' | 'md'; locale: string }) {
  return (
    <div className={select({ size }).root} data-testid="language-picker-placeholder" aria-hidden="true">
      <SelectTriggerPlaceholder size={size} text={languageName(locale)} />
    </div>
  );
}

export interface LanguagePickerProps {
  /** Called after the new locale is active (e.g. to save it to the profile). */
  onChanged?: (locale: string) => void;
  size?: 'sm' | 'md';
  /**
   * Narrower below 1024 px (no globe, no minimum width): the admin header between 768 and 1023 px, where the sidebar
   * leaves it about 512 px and its toast lane (components/ui/toast-lane.ts) needs 288 of them.
   */
  compact?: boolean;
}

const root = css({ display: 'flex', alignItems: 'center', gap: '1.5', minWidth: { base: '0', sm: '36' } });
const compactRoot = css({ display: 'flex', alignItems: 'center', gap: '1.5', minWidth: { base: '0', lg: '36' } });
const globe = css({ color: 'fg.muted', flexShrink: 0, display: { base: 'none', sm: 'block' } });
const compactGlobe = css({ color: 'fg.muted', flexShrink: 0, display: { base: 'none', lg: 'block' } });

/** Language select; the list comes from `GET /api/languages` (en/de/fr/it when it fails). */
export function LanguagePicker({ onChanged, size = 'sm', compact = false }: LanguagePickerProps) {
  const { t, i18n } = useLingui();
  const languages = useQuery({ ...languagesQueryOptions(), placeholderData: [...FALLBACK_LANGUAGES] });
  const changeLanguage = useChangeLanguage();
  // a change waits for its catalog; the select stays enabled meanwhile (disabling it dropped focus to the page's body)
  const pending = useRef(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const { message, announce } = useAnnouncement();
  // each language's own name, marked with its language so a screen reader says it right ("Deutsch" in German)
  const options = (languages.data ?? FALLBACK_LANGUAGES).map((code) => ({ value: code, label: languageName(code), lang: code }));

  const handleChange = async (locale: string) => {
    if (locale === i18n.locale || pending.current) return;
    pending.current = true;
    try {
      const active = await activateLocale(locale);
      // signed in: saved to the profile and cached data reset; guest: stored locally (key `locale`)
      changeLanguage(active);
      onChanged?.(active);
      // said in the new language; focus stays on (or comes back to) the picker's trigger
      const name = languageName(active);
      announce(i18n._(msg`Language changed to ${name}`));
      const trigger = rootRef.current?.querySelector<HTMLElement>('[data-part=trigger]');
      if (trigger && (document.activeElement === document.body || document.activeElement === null)) trigger.focus();
    } finally {
      pending.current = false;
    }
  };

  return (
    <div ref={rootRef} className={compact ? compactRoot : root} data-testid="language-picker">
      <LiveRegion message={message} testId="language-announcer" />
      <GlobeIcon width={18} height={18} className={compact ? compactGlobe : globe} />
      <Suspense fallback={<PickerPlaceholder size={size} locale={i18n.locale} />}>
        <SimpleSelect
          label={t`Language`}
          hideLabel
          size={size}
          options={options}
          value={i18n.locale}
          onValueChange={(locale) => void handleChange(locale)}
        />
      </Suspense>
    </div>
  );
}
