import { useTranslation } from 'react-i18next';
import { LoadingState } from '@/components/ui/loading-state';
import { currentSiteTitle } from '@/app/document-title';

/** Shown while GET /api/me loads ('Initializing {product}'). */
export function InitializingScreen() {
  const { t } = useTranslation();
  return <LoadingState fullScreen message={t('loading.initializing', { product: currentSiteTitle() })} />;
}
