import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { languagesQueryOptions } from '../api/account';
import { activateLocale, FALLBACK_LANGUAGES, languageName } from '../lib/i18n';
import { useChangeLanguage } from '../lib/session-context';
import { GlobeIcon } from './ui/icons';
import { SimpleSelect } from './ui/simple-select';

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
      <SimpleSelect
        label={t`Language`}
        hideLabel
        size={size}
        options={options}
        value={i18n.locale}
        disabled={pending}
        onValueChange={(locale) => void handleChange(locale)}
      />
    </div>
  );
}
