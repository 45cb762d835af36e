import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function BulkImportPage() {
  return <PlaceholderScreen screen="bulkImport" />;
}
