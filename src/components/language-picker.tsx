import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { changeLocale, FALLBACK_LANGUAGES, languageName, languagesQueryOptions } from '../lib/i18n';
import { GlobeIcon } from './ui/icons';
import { SimpleSelect } from './ui/select';

export interface LanguagePickerProps {
  /** Called after the new locale is active (e.g. to save it to the profile). */
  onChanged?: (locale: string) => void;
  size?: 'sm' | 'md';
}

/** Language select; the list comes from `GET /api/languages` (en/de/fr/it when it fails). */
export function LanguagePicker({ onChanged, size = 'sm' }: LanguagePickerProps) {
  const { t, i18n } = useLingui();
  const languages = useQuery({ ...languagesQueryOptions, placeholderData: [...FALLBACK_LANGUAGES] });
  const [pending, setPending] = useState(false);
  const options = (languages.data ?? FALLBACK_LANGUAGES).map((code) => ({ value: code, label: languageName(code) }));

  const handleChange = async (locale: string) => {
    if (locale === i18n.locale) return;
    setPending(true);
    try {
      const active = await changeLocale(locale);
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
