/** The resume handoff for other features (the suspended-sales screen writes it; features may import pos hooks). */
export { readResumeHandoff, RESUME_HANDOFF_KEY, writeResumeHandoff, type ResumeHandoff } from '@/features/pos/lib/resume-handoff';
