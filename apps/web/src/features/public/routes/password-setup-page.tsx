import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PasswordSetupPage() {
  return <PlaceholderScreen screen="passwordSetup" />;
}
