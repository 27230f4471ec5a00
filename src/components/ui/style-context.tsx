import { createContext, useContext, type ComponentProps, type ElementType, type ReactElement } from 'react';
import { cx } from 'styled-system/css';

/**
 * Minimal Park UI style helper: binds an Ark UI part to one slot of a Panda
 * slot recipe. The root part (withProvider / withRootProvider) computes the
 * slot class names from its variant props and shares them through context;
 * the other parts (withContext) pick their slot's class name.
 */
// The generated Panda slot recipe functions: callable with variant props,
// returning one class name per slot, plus `splitVariantProps`.
type SlotRecipeFn = ((...args: never[]) => Record<string, string>) & {
  splitVariantProps: (...args: never[]) => unknown;
};

type Slot<R extends SlotRecipeFn> = Extract<keyof ReturnType<R>, string>;
type VariantProps<R extends SlotRecipeFn> = NonNullable<Parameters<R>[0]>;
type UnknownProps = Record<string, unknown>;
type WithClassName = { className?: string | undefined };

export function createStyleContext<R extends SlotRecipeFn>(recipe: R) {
  const StyleContext = createContext<Record<Slot<R>, string> | null>(null);

  const split = recipe.splitVariantProps as unknown as (props: UnknownProps) => [UnknownProps, UnknownProps];
  const run = recipe as unknown as (props: UnknownProps) => Record<Slot<R>, string>;

  function useSlotStyles(props: UnknownProps): [Record<Slot<R>, string>, UnknownProps] {
    const [variantProps, otherProps] = split(props);
    return [run(variantProps), otherProps];
  }

  /** Root part that renders an element carrying the slot's class name. */
  function withProvider<C extends ElementType>(Component: C, slot: Slot<R>) {
    const Comp = Component as ElementType;
    function StyledProvider(props: ComponentProps<C> & VariantProps<R>): ReactElement {
      const [styles, rest] = useSlotStyles(props as UnknownProps);
      return (
        <StyleContext.Provider value={styles}>
          <Comp {...rest} className={cx(styles[slot], (props as WithClassName).className)} />
        </StyleContext.Provider>
      );
    }
    StyledProvider.displayName = `Styled(${slot})`;
    return StyledProvider;
  }

  /** Root part that renders no element of its own (e.g. Dialog.Root). */
  function withRootProvider<C extends ElementType>(Component: C) {
    const Comp = Component as ElementType;
    function StyledRootProvider(props: ComponentProps<C> & VariantProps<R>): ReactElement {
      const [styles, rest] = useSlotStyles(props as UnknownProps);
      return (
        <StyleContext.Provider value={styles}>
          <Comp {...rest} />
        </StyleContext.Provider>
      );
    }
    StyledRootProvider.displayName = 'StyledRoot';
    return StyledRootProvider;
  }

  /** Any other part: takes its slot's class name from the nearest root. */
  function withContext<C extends ElementType>(Component: C, slot: Slot<R>) {
    const Comp = Component as ElementType;
    function StyledPart(props: ComponentProps<C>): ReactElement {
      const styles = useContext(StyleContext);
      return <Comp {...props} className={cx(styles?.[slot], (props as WithClassName).className)} />;
    }
    StyledPart.displayName = `Styled(${slot})`;
    return StyledPart;
  }

  return { withProvider, withRootProvider, withContext };
}
