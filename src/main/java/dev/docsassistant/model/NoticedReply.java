package dev.docsassistant.model;

import java.util.List;

/** Another reply, preceded by a notice about how it was made. */
final class NoticedReply implements ModelReply {

    private final ModelReply reply;
    private ModelEvent.Notice notice;

    NoticedReply(ModelEvent.Notice notice, ModelReply reply) {
        this.notice = notice;
        this.reply = reply;
    }

    @Override
    public List<Source> sources() {
        return reply.sources();
    }

    @Override
    public ModelEvent next() throws Exception {
        ModelEvent first = notice;
        if (first != null) {
            notice = null;
            return first;
        }
        return reply.next();
    }

    @Override
    public boolean ready() {
        return notice != null || reply.ready();
    }

    @Override
    public Usage usage() {
        return reply.usage();
    }

    @Override
    public void close() {
        reply.close();
    }
}
