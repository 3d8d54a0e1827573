import { useQuery } from '@tanstack/react-query';
import { webConfigQuery } from '../../../lib/web-config';
import './installer.css';

/** /dts/installer/help (operator §2 Help page): the dairy company's form the installer fills in after an install. */
export function InstallHelpPage() {
  // The same query as useWebConfig, read with its state: nothing is said about the form before the config has loaded.
  const config = useQuery(webConfigQuery);
  const formUrl = config.data?.installFormUrl;
  return (
    <section className="page installer">
      <h1 className="page__title">Help</h1>
      <p>After an install, fill in the dairy company&apos;s post-install form.</p>
      {config.isPending ? (
        <p className="page__note">Loading…</p>
      ) : formUrl ? (
        <p>
          <a href={formUrl} target="_blank" rel="noreferrer">
            Open the post-install form
          </a>
        </p>
      ) : (
        <p className="page__note">The post-install form&apos;s address is not configured (installFormUrl in the web configuration).</p>
      )}
    </section>
  );
}
