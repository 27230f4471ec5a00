import { useEffect, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import { SearchIcon } from './icons-more';
import { Input } from './input';

export interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
  delay?: number;
}

/** Search box that reports its value after the user pauses typing. */
export function SearchField({ value, onChange, label, placeholder, delay = 300 }: SearchFieldProps) {
  const [text, setText] = useState(value);
  const latest = useRef(onChange);
  latest.current = onChange;
  const [prev, setPrev] = useState(value);
  if (prev !== value) {
    setPrev(value);
    setText(value);
  }
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => latest.current(text), delay);
    return () => clearTimeout(timer);
  }, [text, value, delay]);
  return (
    // wide enough for its placeholder in every language ("Rechercher par nom ou e-mail") when it sits in a Toolbar
    <div className={css({ position: 'relative', width: 'full', minWidth: 'min(100%, 18rem)' })}>
      <SearchIcon aria-hidden width={16} height={16} className={css({ position: 'absolute', insetStart: '3', top: '50%', transform: 'translateY(-50%)', color: 'fg.subtle', pointerEvents: 'none' })} />
      <Input type="search" aria-label={label} placeholder={placeholder} value={text} onChange={(e) => setText(e.target.value)} className={css({ ps: '9' })} />
    </div>
  );
}
