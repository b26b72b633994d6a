package dev.docsassistant.analytics;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One domain's categories and topics, grouping questions by meaning as they come (leader clustering with moving
 * centroids): a question joins the topic whose centroid is nearest when it is similar enough, else it founds a new
 * one, which joins the nearest similar category or founds one. Nothing is ever re-clustered, so a topic found last
 * week is the same topic this week; the number of topics is bounded (past it a question joins the nearest).
 */
final class TopicModel {

    /** A category ({@code category} -1) or a topic: its id, its label, the sum of its questions' vectors. */
    static final class Group {
        final int id;
        final int category;
        final String label;
        final float[] sum;
        long questions;
        /** Whether the store must be told: a new group, or new questions added. */
        boolean added;
        boolean changed;

        Group(int id, int category, String label, float[] sum, long questions) {
            this.id = id;
            this.category = category;
            this.label = label;
            this.sum = sum;
            this.questions = questions;
        }

        /** The cosine of the unit vector with this group's centroid (the sum's direction). */
        double similarity(float[] vector) {
            double dot = 0;
            double norm = 0;
            for (int d = 0; d < sum.length; d++) {
                dot += sum[d] * vector[d];
                norm += sum[d] * sum[d];
            }
            return norm == 0 ? 0 : dot / Math.sqrt(norm);
        }

        void add(float[] vector) {
            for (int d = 0; d < sum.length; d++) {
                sum[d] += vector[d];
            }
            questions++;
            changed = true;
        }
    }

    private final double topicSimilarity;
    private final double categorySimilarity;
    private final int maxTopics;
    private final List<Group> topics = new ArrayList<>();
    private final List<Group> categories = new ArrayList<>();
    private int lastId;

    /**
     * @param topicSimilarity    the least cosine of a question to a topic's centroid to join it
     * @param categorySimilarity the least cosine of a new topic's first question to a category's centroid to join it
     * @param maxTopics          topics a domain has at most
     */
    TopicModel(double topicSimilarity, double categorySimilarity, int maxTopics) {
        this.topicSimilarity = topicSimilarity;
        this.categorySimilarity = categorySimilarity;
        this.maxTopics = maxTopics;
    }

    /** A group as the store kept it. */
    void load(int id, Integer category, String label, String sum, long questions) {
        Group group = new Group(id, category == null ? -1 : category, label, decode(sum), questions);
        (category == null ? categories : topics).add(group);
        lastId = Math.max(lastId, id);
    }

    /** The topic the question (its unit vector) joins, its category's centroid moved too. */
    Group assign(String question, float[] vector) {
        Group topic = nearest(topics, vector);
        if (topic == null || topic.similarity(vector) < topicSimilarity && topics.size() < maxTopics) {
            Group category = nearest(categories, vector);
            if (category == null || category.similarity(vector) < categorySimilarity) {
                category = found(categories, -1, question, vector);
            }
            topic = found(topics, category.id, question, vector);
        }
        topic.add(vector);
        category(topic).add(vector);
        return topic;
    }

    Group category(Group topic) {
        return categories.stream().filter(c -> c.id == topic.category).findFirst().orElseThrow();
    }

    /** Categories and topics, those the store must be told of first. */
    List<Group> groups() {
        List<Group> all = new ArrayList<>(categories);
        all.addAll(topics);
        return all;
    }

    private Group found(List<Group> groups, int category, String label, float[] vector) {
        Group group = new Group(++lastId, category, label, new float[vector.length], 0);
        group.added = true;
        groups.add(group);
        return group;
    }

    private static Group nearest(List<Group> groups, float[] vector) {
        Group best = null;
        double bestSimilarity = Double.NEGATIVE_INFINITY;
        for (Group group : groups) {
            double similarity = group.similarity(vector);
            if (similarity > bestSimilarity) {
                best = group;
                bestSimilarity = similarity;
            }
        }
        return best;
    }

    static String encode(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(4 * vector.length).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(vector);
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    static float[] decode(String text) {
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(text)).order(ByteOrder.LITTLE_ENDIAN);
        float[] vector = new float[bytes.remaining() / 4];
        bytes.asFloatBuffer().get(vector);
        return vector;
    }
}
