import { useLingui } from '@lingui/react';
import { useMemo } from 'react';

/** Locale-aware date and number formatting (Intl) for the active UI language. */
export function useFormat() {
  const { i18n } = useLingui();
  const locale = i18n.locale || 'en';
  return useMemo(() => {
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    const shortDay = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const longDay = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
    const number = new Intl.NumberFormat(locale);
    const bytes = new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' });
    const kilobytes = new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilobyte', unitDisplay: 'short', maximumFractionDigits: 1 });
    const megabytes = new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', unitDisplay: 'short', maximumFractionDigits: 1 });
    const safe = (fmt: Intl.DateTimeFormat, value: string | null | undefined) => {
      if (!value) return '—';
      const d = new Date(value);
      return Number.isNaN(d.getTime()) ? value : fmt.format(d);
    };
    return {
      locale,
      dateTime: (value: string | null | undefined) => safe(dateTime, value),
      date: (value: string | null | undefined) => safe(date, value),
      /** `YYYY-MM-DD` (UTC day) → short label. */
      day: (value: string) => safe(shortDay, `${value}T00:00:00Z`),
      dayLong: (value: string) => safe(longDay, `${value}T00:00:00Z`),
      number: (value: number) => number.format(value),
      /** A file's size in the reader's words: "31 bytes", "1.5 kB", "2.3 MB" (issue 29: 31 bytes showed as "1 KB"). */
      fileSize: (value: number) => (value < 1000 ? bytes.format(value) : value < 1_000_000 ? kilobytes.format(value / 1000) : megabytes.format(value / 1_000_000)),
    };
  }, [locale]);
}

/** Language code → its own name in the UI language ("de" → "German"/"Deutsch"). */
export function useLanguageName() {
  const { i18n } = useLingui();
  const locale = i18n.locale || 'en';
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale], { type: 'language' });
    } catch {
      names = null;
    }
    return (code: string) => {
      const name = names?.of(code);
      return name ? name.charAt(0).toLocaleUpperCase(locale) + name.slice(1) : code;
    };
  }, [locale]);
}
