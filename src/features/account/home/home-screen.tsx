import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { currentUserQueryOptions } from '../../../api/account';
import { LoadingBar } from '../../../components/loading-bar';
import { PageHeading } from '../../../components/page-heading';
import { AppsIcon, LayersIcon } from '../../../components/ui/icons-more';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { LoadFailed } from '../form-kit';

const card = css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'xl', boxShadow: 'xs', p: { base: '5', md: '6' } });

/** Home: welcome, subscription choice and the service apps its roles open. */
export function HomeScreen() {
  const { t } = useLingui();
  const query = useQuery(currentUserQueryOptions());
  const [selected, setSelected] = useState<string | undefined>(undefined);

  if (query.isPending) return <LoadingBar />;
  if (query.isError) return <LoadFailed className={css({ maxWidth: '3xl', mx: 'auto', width: 'full', display: 'flex', flexDirection: 'column', gap: '4' })} onRetry={() => void query.refetch()} />;
  const user = query.data.auth_user;
  const subscriptions = user.subscriptions ?? [];
  const current = subscriptions.find((s) => s.id === selected) ?? subscriptions[0];
  const name = user.first_name || user.email;

  return (
    <div className={css({ maxWidth: '4xl', mx: 'auto', width: 'full', display: 'flex', flexDirection: 'column', gap: '6' })}>
      <div>
        <PageHeading>
          <Trans>Welcome, {name}!</Trans>
        </PageHeading>
        <p className={css({ color: 'fg.muted', mt: '-4' })}>
          <Trans>Select a subscription to see the applications you can open.</Trans>
        </p>
      </div>

      {subscriptions.length === 0 ? (
        <section className={css({ ...{}, textAlign: 'center' })} aria-labelledby="no-subscriptions">
          <div className={card}>
            <div className={css({ mx: 'auto', width: '12', height: '12', borderRadius: 'full', bg: 'accent.subtle', color: 'accent.text', display: 'flex', alignItems: 'center', justifyContent: 'center', mb: '3' })}>
              <LayersIcon width={22} height={22} aria-hidden="true" />
            </div>
            <h2 id="no-subscriptions" className={css({ textStyle: 'sectionTitle' })}>
              <Trans>No subscriptions yet</Trans>
            </h2>
            <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
              <Trans>Your administrator has not assigned you to a subscription. Once they do, your applications appear here.</Trans>
            </p>
          </div>
        </section>
      ) : (
        <section className={card} aria-labelledby="subscription-heading">
          <div className={css({ display: 'flex', flexDirection: { base: 'column', sm: 'row' }, gap: '4', alignItems: { base: 'stretch', sm: 'flex-end' }, justifyContent: 'space-between' })}>
            <div>
              <h2 id="subscription-heading" className={css({ textStyle: 'sectionTitle' })}>
                <Trans>Subscription</Trans>
              </h2>
              {current?.description ? <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{current.description}</p> : null}
            </div>
            <div className={css({ minWidth: { base: 'full', sm: '64' } })}>
              <SimpleSelect label={t`Select a subscription`} options={subscriptions.map((s) => ({ value: s.id, label: s.name }))} value={current?.id} onValueChange={setSelected} />
            </div>
          </div>
          {current ? (
            <>
              <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', mt: '4' })} aria-label={t`Your roles`} role="list">
                {current.roles.map((role) => (
                  <span role="listitem" key={role.id} className={css({ fontSize: 'xs', fontWeight: 'medium', px: '2', py: '0.5', borderRadius: 'full', bg: 'accent.subtle', color: 'accent.text' })}>
                    {role.name}
                  </span>
                ))}
              </div>
              <h3 className={css({ fontWeight: 'semibold', mt: '6', mb: '3' })}>
                <Trans>Applications</Trans>
              </h3>
              {current.service_apps.length === 0 ? (
                <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
                  <Trans>The roles of this subscription do not open any application yet.</Trans>
                </p>
              ) : (
                <ul className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' }, gap: '3' })}>
                  {current.service_apps.map((app) => (
                    <li key={app.id}>
                      <a
                        href={app.launch_url}
                        target="_blank"
                        rel="noopener noreferrer"
                        className={css({ display: 'flex', alignItems: 'center', gap: '3', p: '4', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', bg: 'bg.surface', _hover: { borderColor: 'accent.default', boxShadow: 'sm' }, transition: 'all 0.12s' })}
                      >
                        <span className={css({ width: '10', height: '10', borderRadius: 'md', bg: 'accent.subtle', color: 'accent.text', display: 'flex', alignItems: 'center', justifyContent: 'center', flexShrink: 0 })}>
                          <AppsIcon width={20} height={20} aria-hidden="true" />
                        </span>
                        <span className={css({ minWidth: 0 })}>
                          <span className={css({ display: 'block', fontWeight: 'medium', color: 'fg.default' })}>{app.display_name}</span>
                          <span className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>
                            <Trans>Open {app.display_name} (new tab)</Trans>
                          </span>
                        </span>
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : null}
        </section>
      )}
    </div>
  );
}
