import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { CodeInput } from '../../src/components/ui/code-input';

function Cleared() {
  const [code, setCode] = useState<string[]>(['1', '2', '3']);
  return (
    <>
      <CodeInput label="Code" value={code} onValueChange={(d) => setCode(d.value)} />
      <button type="button" onClick={() => setCode([])}>
        clear
      </button>
      <output>{code.join('')}</output>
    </>
  );
}

describe('CodeInput', () => {
  it('clears to empty cells with value [] (not "undefined") and takes digits again', async () => {
    render(<Cleared />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'clear' }));
    const cells = screen.getAllByRole('textbox');
    expect(cells).toHaveLength(6);
    expect(cells.map((cell) => (cell as HTMLInputElement).value)).toEqual(['', '', '', '', '', '']);
    await user.click(cells[0] as HTMLElement);
    await user.keyboard('4');
    expect((cells[0] as HTMLInputElement).value).toBe('4');
    expect(screen.getByRole('status')).toHaveTextContent('4');
  });
});
