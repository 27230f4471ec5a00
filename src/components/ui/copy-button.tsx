import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Button } from './button';
import { CheckIcon } from './icons';
import { CopyIcon } from './icons-more';

export interface CopyButtonProps {
  value: string;
  label?: string;
}

/** Copies a secret to the clipboard and says so. */
export function CopyButton({ value, label }: CopyButtonProps) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false));
      }}
    >
      {copied ? <CheckIcon width={20} height={20} /> : <CopyIcon />}
      <span aria-live="polite">{copied ? t`Copied` : (label ?? t`Copy`)}</span>
    </Button>
  );
}
