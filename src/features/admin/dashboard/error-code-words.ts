import { useEffect, useState } from 'react';
import { loadCatalogs } from '../../../lib/i18n';

type WordsModule = typeof import('./error-codes/labels');

/**
 * The words for the error log's codes (error-codes/labels.ts: the console's sentences for the API's codes, and its
 * catalog admin-error-codes with the words for the provider's OAuth codes) load with the first error log shown, not
 * with the dashboard: ~80 labels in the admin's language were 2.4 KB brotli on its first load.
 */
let loaded: WordsModule | null = null;
let loading: Promise<WordsModule> | null = null;

function loadWords(): Promise<WordsModule> {
  if (!loading) {
    loading = Promise.all([import('./error-codes/labels'), loadCatalogs(['admin-error-codes'])]).then(([module]) => (loaded = module));
    // a failed chunk is asked for again by the next render that needs it
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** The words module once it and its messages are there (null until then). */
export function useErrorCodeWords(): WordsModule | null {
  const [words, setWords] = useState<WordsModule | null>(loaded);
  useEffect(() => {
    if (words) return;
    let live = true;
    loadWords().then(
      (module) => live && setWords(module),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [words]);
  return words;
}
