import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { css } from 'styled-system/css';
import { select } from 'styled-system/recipes';
import { languagesQueryOptions } from '../api/account';
import { activateLocale, FALLBACK_LANGUAGES, languageName } from '../lib/i18n';
import { useChangeLanguage } from '../lib/session-context';
import { ChevronDownIcon, GlobeIcon } from './ui/icons';

// The select (Ark UI / zag select machine, floating-ui: ~20 KB brotli) is not needed for the first paint of a page
// with the picker in its header (e.g. /login): it loads right after it, and until then a same-sized copy of the
// trigger shows the active language (not yet operable). Screens that use SimpleSelect themselves import it statically.
const SimpleSelect = lazy(() => import('./ui/simple-select').then((module) => ({ default: module.SimpleSelect })));

/** What the picker shows while its select loads: the trigger's look, inert, with the active language. */
function PickerPlaceholder({ size, locale }: { size: 'sm' | 'md'; locale: string }) {
  const classes = select({ size });
  return (
    <div className={classes.root} data-testid="language-picker-placeholder" aria-hidden="true">
      <div className={classes.control}>
        <div className={classes.trigger}>
          <span className={classes.valueText}>{languageName(locale)}</span>
          <span className={classes.indicator}>
            <ChevronDownIcon width={16} height={16} />
          </span>
        </div>
      </div>
    </div>
  );
}

export interface LanguagePickerProps {
  /** Called after the new locale is active (e.g. to save it to the profile). */
  onChanged?: (locale: string) => void;
  size?: 'sm' | 'md';
}

/** Language select; the list comes from `GET /api/languages` (en/de/fr/it when it fails). */
export function LanguagePicker({ onChanged, size = 'sm' }: LanguagePickerProps) {
  const { t, i18n } = useLingui();
  const languages = useQuery({ ...languagesQueryOptions(), placeholderData: [...FALLBACK_LANGUAGES] });
  const changeLanguage = useChangeLanguage();
  const [pending, setPending] = useState(false);
  const options = (languages.data ?? FALLBACK_LANGUAGES).map((code) => ({ value: code, label: languageName(code) }));

  const handleChange = async (locale: string) => {
    if (locale === i18n.locale) return;
    setPending(true);
    try {
      const active = await activateLocale(locale);
      // signed in: saved to the profile and cached data reset; guest: stored locally (key `locale`)
      changeLanguage(active);
      onChanged?.(active);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '1.5', minWidth: '36' })} data-testid="language-picker">
      <GlobeIcon width={18} height={18} className={css({ color: 'fg.muted', flexShrink: 0 })} />
      <Suspense fallback={<PickerPlaceholder size={size} locale={i18n.locale} />}>
        <SimpleSelect
          label={t`Language`}
          hideLabel
          size={size}
          options={options}
          value={i18n.locale}
          disabled={pending}
          onValueChange={(locale) => void handleChange(locale)}
        />
      </Suspense>
    </div>
  );
}
