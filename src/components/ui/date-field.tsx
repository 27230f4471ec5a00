import { DatePicker as ArkDatePicker, parseDate, type DateValue } from '@ark-ui/react/date-picker';
import { Portal } from '@ark-ui/react/portal';
import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { datePicker } from 'styled-system/recipes';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from './icons-more';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(datePicker);

const Root = withProvider(ArkDatePicker.Root, 'root');
const Label = withContext(ArkDatePicker.Label, 'label');
const Control = withContext(ArkDatePicker.Control, 'control');
const Input = withContext(ArkDatePicker.Input, 'input');
const Trigger = withContext(ArkDatePicker.Trigger, 'trigger');
const Positioner = withContext(ArkDatePicker.Positioner, 'positioner');
const Content = withContext(ArkDatePicker.Content, 'content');
const View = withContext(ArkDatePicker.View, 'view');
const ViewControl = withContext(ArkDatePicker.ViewControl, 'viewControl');
const ViewTrigger = withContext(ArkDatePicker.ViewTrigger, 'viewTrigger');
const PrevTrigger = withContext(ArkDatePicker.PrevTrigger, 'prevTrigger');
const NextTrigger = withContext(ArkDatePicker.NextTrigger, 'nextTrigger');
const Table = withContext(ArkDatePicker.Table, 'table');
const TableHead = withContext(ArkDatePicker.TableHead, 'tableHead');
const TableHeader = withContext(ArkDatePicker.TableHeader, 'tableHeader');
const TableBody = withContext(ArkDatePicker.TableBody, 'tableBody');
const TableRow = withContext(ArkDatePicker.TableRow, 'tableRow');
const TableCell = withContext(ArkDatePicker.TableCell, 'tableCell');
const TableCellTrigger = withContext(ArkDatePicker.TableCellTrigger, 'tableCellTrigger');

/** `YYYY-MM-DD` → a calendar date, or undefined for anything else. */
function toDateValue(iso: string | undefined): DateValue | undefined {
  if (!iso || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) return undefined;
  try {
    return parseDate(iso);
  } catch {
    return undefined;
  }
}

export interface DateFieldProps {
  label: string;
  /** The date as `YYYY-MM-DD` (what URLs and the API carry), or undefined. */
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  min?: string | undefined;
  max?: string | undefined;
}

/**
 * A date in the reader's language: typed in their format (23.11.2026, 23/11/2026, 11/23/2026) with the pattern as
 * placeholder (TT.MM.JJJJ, jj/mm/aaaa, gg/mm/aaaa, mm/dd/yyyy), or picked from a calendar whose month and day names
 * are theirs. A native date input follows the browser's language instead, so a German page showed mm/dd/yyyy.
 * Keyboard: type, or open the calendar with its button (arrows move by day/week, Page Up/Down by month, Enter picks);
 * the value stays `YYYY-MM-DD`.
 */
export function DateField({ label, value, onChange, min, max }: DateFieldProps) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const letters = { day: t({ message: 'dd', comment: 'placeholder letters of the day in a typed date (TT in German)' }), month: t({ message: 'mm', comment: 'placeholder letters of the month in a typed date' }), year: t({ message: 'yyyy', comment: 'placeholder letters of the year in a typed date (JJJJ in German)' }) };
  const placeholder = useMemo(
    () =>
      new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' })
        .formatToParts(new Date(2026, 10, 23))
        .map((part) => (part.type === 'day' ? letters.day : part.type === 'month' ? letters.month : part.type === 'year' ? letters.year : part.value))
        .join(''),
    [locale, letters.day, letters.month, letters.year],
  );
  const selected = toDateValue(value);
  const minValue = toDateValue(min);
  const maxValue = toDateValue(max);
  return (
    <Root
      locale={locale}
      value={selected ? [selected] : []}
      {...(minValue ? { min: minValue } : {})}
      {...(maxValue ? { max: maxValue } : {})}
      placeholder={placeholder}
      onValueChange={(details) => {
        const next = details.value[0];
        onChange(next ? next.toString() : undefined);
      }}
      positioning={{ placement: 'bottom-start' }}
      translations={{
        trigger: (open) => (open ? t`Close calendar` : t`Open calendar`),
        content: t`Calendar`,
        prevTrigger: (view) => (view === 'day' ? t`Previous month` : view === 'month' ? t`Previous year` : t`Previous decade`),
        nextTrigger: (view) => (view === 'day' ? t`Next month` : view === 'month' ? t`Next year` : t`Next decade`),
        viewTrigger: (_view, next) => (next === 'month' ? t`Choose a month` : next === 'year' ? t`Choose a year` : t`Calendar`),
        dayCell: (state) => (state.unavailable ? t`Not available: ${state.valueText}` : state.selected ? t`Selected: ${state.valueText}` : state.valueText),
        clearTrigger: t`Clear the date`,
        placeholder: () => letters,
      }}
    >
      <Label>{label}</Label>
      <Control>
        <Input />
        <Trigger>
          <CalendarIcon width={16} height={16} />
        </Trigger>
      </Control>
      <Portal>
        <Positioner>
          <Content>
            <View view="day">
              <ArkDatePicker.Context>
                {(api) => (
                  <>
                    <ViewHeader />
                    <Table>
                      <TableHead>
                        <TableRow>
                          {api.weekDays.map((day) => (
                            <TableHeader key={day.long} abbr={day.long}>
                              {day.narrow}
                            </TableHeader>
                          ))}
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {api.weeks.map((week) => (
                          <TableRow key={week[0]!.toString()}>
                            {week.map((day) => (
                              <TableCell key={day.toString()} value={day}>
                                <TableCellTrigger>{day.day}</TableCellTrigger>
                              </TableCell>
                            ))}
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </>
                )}
              </ArkDatePicker.Context>
            </View>
            <View view="month">
              <ArkDatePicker.Context>{(api) => <CellGrid rows={api.getMonthsGrid({ columns: 4, format: 'short' })} />}</ArkDatePicker.Context>
            </View>
            <View view="year">
              <ArkDatePicker.Context>{(api) => <CellGrid rows={api.getYearsGrid({ columns: 4 })} />}</ArkDatePicker.Context>
            </View>
          </Content>
        </Positioner>
      </Portal>
    </Root>
  );
}

/** Previous, the range shown (a button to the next view up: month → year), next. */
function ViewHeader() {
  return (
    <ViewControl>
      <PrevTrigger>
        <ChevronLeftIcon width={16} height={16} />
      </PrevTrigger>
      <ViewTrigger>
        <ArkDatePicker.RangeText />
      </ViewTrigger>
      <NextTrigger>
        <ChevronRightIcon width={16} height={16} />
      </NextTrigger>
    </ViewControl>
  );
}

/** The month or year view: its header and a grid of cells (value, label). */
function CellGrid({ rows }: { rows: { value: number; label: string }[][] }) {
  return (
    <>
      <ViewHeader />
      <Table>
        <TableBody>
          {rows.map((cells) => (
            <TableRow key={cells[0]!.value}>
              {cells.map((cell) => (
                <TableCell key={cell.value} value={cell.value}>
                  <TableCellTrigger>{cell.label}</TableCellTrigger>
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
